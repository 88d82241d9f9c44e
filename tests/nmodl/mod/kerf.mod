TITLE kerf.mod: test input: a potassium current whose activation curve is an error function (erf), integrated by cnexp
NEURON {
  SUFFIX kerf
  USEION k READ ek WRITE ik
  RANGE gbar, vhalf, width
}
UNITS { (mA) = (milliamp) (mV) = (millivolt) (S) = (siemens) }
PARAMETER { gbar = 0.01 (S/cm2) vhalf = -30 (mV) width = 15 (mV) tau = 4 (ms) }
ASSIGNED { v (mV) ek (mV) ik (mA/cm2) ninf }
STATE { n }
INITIAL { rates(v) n = ninf }
BREAKPOINT {
  SOLVE states METHOD cnexp
  ik = gbar*n*n*(v - ek)
}
DERIVATIVE states { rates(v) n' = (ninf - n)/tau }
PROCEDURE rates(v (mV)) { ninf = 0.5*(1 + erf((v - vhalf)/width)) }
