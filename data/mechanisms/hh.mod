TITLE hh.mod: Hodgkin-Huxley sodium, potassium and leak channels of the squid giant axon
COMMENT
Written for hinesbatch from Hodgkin and Huxley (1952), J Physiol 117:500-544,
with the voltage shifted to a resting potential of -65 mV and the rates in
1/ms at 6.3 degC, scaled by q10 = 3^((celsius - 6.3)/10): the same functions
as kernels_cl/sim/membrane.cl. The rates alpha_m and alpha_n are written as
the plain quotients; hb_nmodl finds their 0/0 at v = -40 and -55 mV.
ENDCOMMENT

NEURON {
    SUFFIX hh
    USEION na READ ena WRITE ina
    USEION k READ ek WRITE ik
    NONSPECIFIC_CURRENT il
    RANGE gnabar, gkbar, gl, el
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    gnabar = 0.12 (S/cm2) <0, 1e9>
    gkbar = 0.036 (S/cm2) <0, 1e9>
    gl = 0.0003 (S/cm2) <0, 1e9>
    el = -54.3 (mV)
}

STATE {
    m
    h
    n
}

ASSIGNED {
    v (mV)
    celsius (degC)
    ena (mV)
    ek (mV)
    ina (mA/cm2)
    ik (mA/cm2)
    il (mA/cm2)
    minf hinf ninf
    mtau (ms) htau (ms) ntau (ms)
}

BREAKPOINT {
    SOLVE states METHOD cnexp
    ina = gnabar * m * m * m * h * (v - ena)
    ik = gkbar * n * n * n * n * (v - ek)
    il = gl * (v - el)
}

INITIAL {
    rates(v)
    m = minf
    h = hinf
    n = ninf
}

DERIVATIVE states {
    rates(v)
    m' = (minf - m) / mtau
    h' = (hinf - h) / htau
    n' = (ninf - n) / ntau
}

PROCEDURE rates(v (mV)) {
    LOCAL q10, alpha, beta
    q10 = 3^((celsius - 6.3) / 10)
    : sodium activation
    alpha = 0.1 * (v + 40) / (1 - exp(-(v + 40) / 10))
    beta = 4 * exp(-(v + 65) / 18)
    mtau = 1 / (q10 * (alpha + beta))
    minf = alpha / (alpha + beta)
    : sodium inactivation
    alpha = 0.07 * exp(-(v + 65) / 20)
    beta = 1 / (exp(-(v + 35) / 10) + 1)
    htau = 1 / (q10 * (alpha + beta))
    hinf = alpha / (alpha + beta)
    : potassium activation
    alpha = 0.01 * (v + 55) / (1 - exp(-(v + 55) / 10))
    beta = 0.125 * exp(-(v + 65) / 80)
    ntau = 1 / (q10 * (alpha + beta))
    ninf = alpha / (alpha + beta)
}
