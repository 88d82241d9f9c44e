TITLE kpump.mod: test input: KINETIC with a state-dependent << flux (a pump) beside linear reactions
NEURON { SUFFIX kpump USEION ca READ ica WRITE cai }
PARAMETER { kp = 0.3 (/ms) kf = 0.2 kb = 0.1 }
ASSIGNED { ica (mA/cm2) }
STATE { cai (mM) bca (mM) }
INITIAL { cai = 1e-4 bca = 2e-4 }
BREAKPOINT { SOLVE kin METHOD sparse }
KINETIC kin {
  ~ cai << (-kp*(cai - 5e-5) - ica*50)
  ~ cai <-> bca (kf, kb)
}
