TITLE cseq.mod: test input: cnexp updates each state in place, in the block's order: a value kept after the first state's equation and a second state's equation read the first state's new value (as nocmodl)
NEURON {
  SUFFIX cseq
  NONSPECIFIC_CURRENT i
  RANGE g, occ
}
UNITS { (mV) = (millivolt) (mA) = (milliamp) (S) = (siemens) }
PARAMETER { g = 2e-3 (S/cm2) erev = -80 (mV) }
ASSIGNED { v (mV) i (mA/cm2) occ }
STATE { c1 c2 }
INITIAL {
  c1 = 0.25
  c2 = 0.05
  occ = c2 * c2
}
BREAKPOINT {
  SOLVE chain METHOD cnexp
  i = g * occ * (v - erev)
}
DERIVATIVE chain {
  LOCAL a
  a = 0.2 * exp(v / 25)
  c1' = a * (1 - c1) - 0.3 * c1
  c2' = (c1 - c2) / 4
  occ = c2 * c2 + 0.5 * c1
}
