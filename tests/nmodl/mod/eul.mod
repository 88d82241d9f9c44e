TITLE eul.mod: test input: METHOD euler, state_discontinuity and flag in NET_RECEIVE
NEURON {
  POINT_PROCESS EulSyn
  RANGE tau, e, i, kd
  NONSPECIFIC_CURRENT i
}
PARAMETER { tau = 3 (ms) e = -70 (mV) kd = 0.5 }
ASSIGNED { v (mV) i (nA) }
STATE { g (uS) s }
INITIAL { g = 0 s = 0.1 }
BREAKPOINT {
  SOLVE state METHOD euler
  i = g*s*(v - e)
}
DERIVATIVE state {
  g' = -g/tau
  s' = (1 - s)*0.05 - s*s*kd*0.1
}
NET_RECEIVE(weight (uS)) {
  if (flag == 0) {
    state_discontinuity(g, g + weight)
  }
}
