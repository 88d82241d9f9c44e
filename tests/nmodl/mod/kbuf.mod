TITLE kbuf.mod: test input: calcium binding to a buffer as a KINETIC scheme (nonlinear), ica influx through <<
NEURON {
  SUFFIX kbuf
  USEION ca READ ica WRITE cai
  RANGE btot
}
UNITS { (mM) = (milli/liter) (um) = (micron) (mA) = (milliamp) FARADAY = (faraday) (coulomb) }
PARAMETER { btot = 0.05 (mM) kon = 100 (/mM-ms) koff = 0.1 (/ms) depth = 0.2 (um) cai0 = 5e-5 (mM) }
ASSIGNED { ica (mA/cm2) }
STATE { cai (mM) b (mM) cab (mM) }
INITIAL {
  cai = cai0
  b = btot*koff/(koff + kon*cai0)
  cab = btot - b
}
BREAKPOINT { SOLVE kin METHOD sparse }
KINETIC kin {
  ~ cai << (-ica*(1e4)/(2*FARADAY*depth))
  ~ cai + b <-> cab (kon, koff)
  CONSERVE b + cab = btot
}
