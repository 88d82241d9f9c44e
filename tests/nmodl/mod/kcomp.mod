TITLE kcomp.mod: test input: COMPARTMENT in a KINETIC scheme: calcium in a shell whose volume follows diam, a buffer there, a store of its own volume, CONSERVE over volume-weighted states
NEURON {
  SUFFIX kcomp
  USEION ca READ ica WRITE cai
  RANGE btot, vstore
}
UNITS { (mM) = (milli/liter) (um) = (micron) (mA) = (milliamp) FARADAY = (faraday) (coulomb) PI = (pi) (1) }
PARAMETER {
  btot = 0.05 (mM) kon = 100 (/mM-ms) koff = 0.1 (/ms)
  kup = 0.02 (/ms) krel = 0.005 (/ms)
  depth = 0.1 (um) vstore = 0.3 (um2) cai0 = 5e-5 (mM)
}
ASSIGNED { ica (mA/cm2) diam (um) }
STATE { cai (mM) b (mM) cab (mM) cas (mM) }
INITIAL {
  cai = cai0
  b = btot*koff/(koff + kon*cai0)
  cab = btot - b
  cas = cai0*kup/krel
}
BREAKPOINT { SOLVE kin METHOD sparse }
FUNCTION vshell() (um2) { vshell = PI*depth*(diam - depth) }
KINETIC kin {
  COMPARTMENT vshell() {cai b cab}
  COMPARTMENT vstore {cas}
  ~ cai << (-ica*PI*diam*(1e4)/(2*FARADAY))
  ~ cai + b <-> cab (kon*vshell(), koff*vshell())
  ~ cai <-> cas (kup*vshell(), krel*vshell())
  CONSERVE b + cab = btot*vshell()
}
