"""units.py: the value of a UNITS block constant `NAME = (unit) (unit)`: the first unit expressed in the second, as NEURON 9's nocmodl computes it."""
from fractions import Fraction

# Why a table of our own: the constant is a ratio of two unit expressions
# (`(faraday) (kilocoulombs)` is 96.485..., not 96485...), so the second unit
# matters. Values in one coherent system (SI, mole a pure number, as NEURON's
# units library has it), NEURON 9's 2019 SI constants. Only the scale is
# computed: NEURON also checks that the dimensions agree, which a file it
# compiles already satisfies.
_E = Fraction("1.602176634e-19")     # elementary charge, coulomb
_MOLE = Fraction("6.02214076e23")    # a mole is this many
_K = Fraction("1.380649e-23")        # boltzmann, joule/kelvin
_NAMED = {
    "e": _E, "mole": _MOLE, "k": _K, "boltzmann": _K,
    "faraday": _E * _MOLE, "R": _K * _MOLE, "gasconstant": _K * _MOLE,
    "coul": 1, "coulomb": 1, "joule": 1, "volt": 1, "amp": 1, "ampere": 1, "watt": 1,
    "ohm": 1, "mho": 1, "siemens": 1, "S": 1, "farad": 1, "degC": 1, "kelvin": 1,
    "K": 1, "sec": 1, "second": 1, "s": 1, "meter": 1, "m": 1, "gram": Fraction(1, 1000),
    "g": Fraction(1, 1000), "liter": Fraction(1, 1000), "l": Fraction(1, 1000),
    "L": Fraction(1, 1000), "molar": _MOLE * 1000, "M": _MOLE * 1000, "micron": Fraction(1, 10**6),
    "V": 1, "A": 1, "C": 1, "J": 1,
    # NEURON's files write `PI = (pi) (1)`; nrnunits.lib's digits.
    "pi": Fraction("3.14159265358979323846"),
}
_PREFIXES = (("femto", Fraction(1, 10**15)), ("pico", Fraction(1, 10**12)),
             ("nano", Fraction(1, 10**9)), ("micro", Fraction(1, 10**6)),
             ("milli", Fraction(1, 1000)), ("centi", Fraction(1, 100)), ("deci", Fraction(1, 10)),
             ("kilo", 1000), ("mega", 10**6), ("giga", 10**9),
             ("f", Fraction(1, 10**15)), ("p", Fraction(1, 10**12)), ("n", Fraction(1, 10**9)),
             ("u", Fraction(1, 10**6)), ("m", Fraction(1, 1000)), ("c", Fraction(1, 100)),
             ("d", Fraction(1, 10)), ("k", 1000), ("M", 10**6), ("G", 10**9))


def _name_value(word, defs, seen):
    """A unit name's value: as is, else without a plural s, else a prefix times the rest,
    else the file's own definition of it (defs: `(name) = (expression)` of its UNITS)."""
    if word in _NAMED:
        return _NAMED[word]
    # A plural only past three letters: "ms" is a millisecond, not meters.
    if len(word) > 3 and word.endswith("s") and word[:-1] in _NAMED:
        return _NAMED[word[:-1]]
    for p, f in _PREFIXES:
        if word.startswith(p) and len(word) > len(p):
            rest = _name_value(word[len(p):], defs, seen)
            if rest is not None:
                return f * rest
    # Only for names the table lacks: a file's (mM) = (milli/liter) must
    # not change what (mM) means in a constant NEURON computes from its
    # own library (nocmodl also takes a file's definition for a name its
    # library lacks: (degK) = (kelvin)).
    if word in defs and word not in seen:
        return unit_value(defs[word], defs, seen | {word})
    return None


def unit_value(text, defs=None, seen=frozenset()):
    """The scale of a unit expression such as 'joule/degC' or 'k-mole'; None when a name is unknown.

    Names separated by blanks or '-' multiply; after '/' they divide; a name
    followed by digits is raised to that power (cm2).
    """
    import re
    value, den = Fraction(1), False
    for tok in re.findall(r"/|[A-Za-z_]+[0-9]*|[0-9.]+(?:[eE][+-]?[0-9]+)?|\S", text):
        if tok == "/":
            den = True
            continue
        if tok in ("-", "*", "(", ")"):
            continue
        m = re.fullmatch(r"([A-Za-z_]+)([0-9]*)", tok)
        if m:
            base = _name_value(m.group(1), defs or {}, seen)
            if base is None:
                return None
            f = Fraction(base) ** int(m.group(2) or 1)
        else:
            try:
                f = Fraction(tok)
            except ValueError:
                return None
        if den and f == 0:
            return None  # '(/0faraday)': no scale, reported as an unknown unit
        value = value / f if den else value * f
    return value


def constant(first, second, defs=None):
    """`NAME = (first) (second)`: the value of first in units of second, as decimal text; None if
    unknown. defs: the file's unit definitions so far, name -> expression."""
    a, b = unit_value(first, defs), unit_value(second, defs)
    if a is None or b is None or b == 0:
        return None
    return repr(float(a / b))
