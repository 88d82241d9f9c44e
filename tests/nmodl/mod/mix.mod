TITLE mix.mod: test input: currents from a PROCEDURE in BREAKPOINT, if/else if chains, log10, unary minus powers
NEURON { SUFFIX mix NONSPECIFIC_CURRENT ih RANGE gh, eh }
PARAMETER { gh = 1e-4 (S/cm2) eh = -30 (mV) k = 8 }
ASSIGNED { v (mV) ih (mA/cm2) minf mtau (ms) celsius (degC) }
STATE { m }
INITIAL { settau() m = minf }
BREAKPOINT {
  SOLVE st METHOD cnexp
  curr()
}
PROCEDURE curr() { ih = gh*m*(v - eh) }
DERIVATIVE st { settau() m' = (minf - m)/mtau }
PROCEDURE settau() { LOCAL q
  q = 4.5^((celsius - 33)/10)
  minf = 1/(1 + exp((v + 80)/k))
  if (v < -100) {
    mtau = 200/q
  } else if (v < -50) {
    mtau = (20 + 100*log10(1 + fabs(v + 50)))/q
  } else {
    mtau = -2^2 + 24/q
  }
}
