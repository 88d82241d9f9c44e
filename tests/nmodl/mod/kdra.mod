TITLE kdra.mod: test input: delayed rectifier, rates PROCEDURE with TABLE, GLOBAL taus, q10
COMMENT
  An n^4 potassium channel: alpha/beta rates through a vtrap helper; comments of
  every kind, numbers such as .036 and 3., and uneven spacing on purpose.
ENDCOMMENT
NEURON {
	THREADSAFE
	SUFFIX kdra
	USEION k READ ek WRITE ik
	RANGE gkbar, gk, ik
	GLOBAL ninf, ntau, q10
}
UNITS {
	(mA) = (milliamp)
	(mV) = (millivolt)
	(S)  = (siemens)
}
PARAMETER {
	gkbar = .036   (S/cm2)   <0,1e9>
	q10   = 3.                   ? a trailing-? comment
	tadj0 = 6.3    (degC)
	vhalf = -55    (mV)
}
ASSIGNED {
	v (mV)   celsius (degC)
	ek (mV)
	ik (mA/cm2)  gk (S/cm2)
	ninf   ntau (ms)
}
STATE { n }
BREAKPOINT {
	SOLVE states METHOD cnexp
	gk = gkbar*n*n*n*n
	ik = gk*(v - ek)
}
INITIAL {
	rates(v)
	n = ninf
}
DERIVATIVE states {
	rates(v)
	n' = (ninf-n)/ntau
}
PROCEDURE rates(v(mV)) {  LOCAL  alpha, beta, sum, q
	TABLE ninf, ntau DEPEND celsius FROM -100 TO 100 WITH 200
UNITSOFF
	q = q10^((celsius - tadj0)/10)
	alpha = .01*vtrap(-(v-vhalf),10)
	beta = .125*exp(-(v+65)/80)
	sum = alpha + beta
	ntau = 1/(q*sum)
	ninf = alpha/sum
UNITSON
}
FUNCTION vtrap(x,y) {  : x/(exp(x/y)-1), with the limit at x = 0
	if (fabs(x/y) < 1e-6) {
		vtrap = y*(1 - x/y/2)
	}else{
		vtrap = x/(exp(x/y) - 1)
	}
}
