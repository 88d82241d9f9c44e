TITLE kin3.mod: test input: three-state Markov potassium channel as a KINETIC scheme, CONSERVE, STEADYSTATE
NEURON {
  SUFFIX kin3
  USEION k READ ek WRITE ik
  RANGE gbar
}
UNITS { (mA) = (milliamp) (mV) = (millivolt) }
PARAMETER { gbar = 0.02 (S/cm2) }
ASSIGNED { v (mV) ek (mV) ik (mA/cm2) a1 (/ms) b1 (/ms) a2 (/ms) b2 (/ms) }
STATE { c1 c2 o }
BREAKPOINT {
  SOLVE kin METHOD sparse
  ik = gbar*o*(v - ek)
}
INITIAL { SOLVE kin STEADYSTATE sparse }
KINETIC kin {
  rates(v)
  ~ c1 <-> c2 (a1, b1)
  ~ c2 <-> o (a2, b2)
  CONSERVE c1 + c2 + o = 1
}
PROCEDURE rates(v (mV)) {
  a1 = 0.2*exp((v + 40)/20)
  b1 = 0.1*exp(-(v + 40)/25)
  a2 = 0.5*exp((v + 30)/15)
  b2 = 0.3*exp(-(v + 30)/30)
}
