TITLE cpool.mod: test input: a calcium pool integrated in a STATE of its own and written to the ion by assignment (WRITE cai where cai is not a STATE), the influx clipped at zero, cnexp
NEURON {
  SUFFIX cpool
  USEION ca READ ica, cai WRITE cai
  RANGE shell, tdecay, influx
}
UNITS {
  (mM) = (milli/liter)
  (um) = (micron)
  (mA) = (milliamp)
  FARADAY = (faraday) (coulomb)
}
PARAMETER {
  shell = 0.15 (um)
  tdecay = 80 (ms)
  crest = 7e-5 (mM)
}
ASSIGNED { ica (mA/cm2) cai (mM) influx (mM/ms) }
STATE { cpl (mM) }
INITIAL {
  cpl = crest
  cai = cpl
}
BREAKPOINT { SOLVE pool METHOD cnexp }
DERIVATIVE pool {
  influx = -(1e4) * ica / (2 * FARADAY * shell)
  if (influx < 0) { influx = 0 }
  cpl' = influx + (crest - cpl) / tdecay
  cai = cpl
}
