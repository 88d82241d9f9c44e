TITLE kspec.mod: test input: KINETIC species that are not STATEs (a PARAMETER, and the ion's cao also in a COMPARTMENT: constants of the scheme) and the last reactions' f_flux, b_flux read into a current
NEURON {
  SUFFIX kspec
  USEION ca READ cao, ica WRITE cai
  NONSPECIFIC_CURRENT ix
  RANGE src, ix, flx
}
UNITS { (mM) = (milli/liter) (mA) = (milliamp) }
PARAMETER {
  src = 2e-4 (mM)
  kin = 0.05 (/ms)
  kout = 0.02 (/ms)
  kp = 40 (/mM-ms)
  kq = 1e-3 (/mM-ms)
  vo = 3
  gx = 1e-3
}
ASSIGNED { ica (mA/cm2) cao (mM) ix (mA/cm2) flx }
STATE { cai (mM) pm (mM) pmca (mM) }
INITIAL {
  cai = 5e-5
  pm = 1e-3
  pmca = 0
  flx = 0
}
BREAKPOINT {
  SOLVE sch METHOD sparse
  ix = gx * flx
}
KINETIC sch {
  COMPARTMENT vo { cao pm pmca }
  ~ src <-> cai (kin, kout)
  ~ cai + pm <-> pmca (kp, 0)
  ~ pmca <-> pm + cao (0.1, kq)
  flx = f_flux - b_flux
  ~ cai << (-ica * 20)
  flx = flx + 1e3 * b_flux
}
