"""Python clients for the simhash PostgreSQL extension.

The value class lives here; each driver or ORM has its own module, imported
only when used:

    simhash_pg.psycopg      psycopg 3: register(conn)
    simhash_pg.psycopg2     psycopg2: register(conn)
    simhash_pg.sqlalchemy   SQLAlchemy 1.4: SimhashType, simhash_of()
    simhash_pg.django       Django 3.2: SimhashField, Distance, SimhashOf, SimhashIndex
"""

__all__ = ["Simhash"]
__version__ = "0.1.0"

_BITS = 64
_MASK = (1 << _BITS) - 1


class Simhash(int):
    """A 64-bit fingerprint: an int from 0 to 2**64 - 1 (the unsigned reading).

    Simhash(int), Simhash('0123456789abcdef') (the server's text form, also
    0x..., or 64 binary digits) and Simhash(8 bytes, big-endian).  A signed
    64-bit value (a bigint column, Java's long) goes through from_signed().
    str() is the server's text form: 16 lowercase hexadecimal digits.
    """

    __slots__ = ()

    def __new__(cls, value):
        if isinstance(value, Simhash):
            return value
        if isinstance(value, str):
            return super().__new__(cls, _parse(value))
        if isinstance(value, (bytes, bytearray, memoryview)):
            if len(value) != 8:
                raise ValueError("a simhash is 8 bytes, not %d" % len(value))
            return super().__new__(cls, int.from_bytes(value, "big"))
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("a simhash is made of an int, str or 8 bytes, not %s"
                            % type(value).__name__)
        if not 0 <= value <= _MASK:
            raise ValueError("%d is not an unsigned 64-bit value (0 to 2**64 - 1); "
                             "use Simhash.from_signed() for a signed one" % value)
        return super().__new__(cls, value)

    @classmethod
    def from_signed(cls, value):
        """The fingerprint whose 64 bits are the two's complement of value."""
        if not -(1 << 63) <= value < (1 << 63):
            raise ValueError("%d is not a signed 64-bit value" % value)
        return cls(value & _MASK)

    def to_signed(self):
        """The 64 bits read as a signed integer, as the server's ::bigint."""
        return int(self) - (1 << _BITS) if self >> (_BITS - 1) else int(self)

    def hex(self):
        """16 lowercase hexadecimal digits, the server's text form."""
        return "%016x" % int(self)

    def distance(self, other):
        """The Hamming distance, as the server's <-> computes it."""
        return bin(int(self) ^ int(Simhash(other))).count("1")

    def __str__(self):
        return self.hex()

    def __repr__(self):
        return "Simhash('%s')" % self.hex()


def _parse(text):
    """The server's text input: 16 hex digits, 0x + 16, 64 binary, 0b + 64."""
    s = text.strip()
    body, base = s, None
    if len(s) == 18 and s[:2] in ("0x", "0X"):
        body, base = s[2:], 16
    elif len(s) == 66 and s[:2] in ("0b", "0B"):
        body, base = s[2:], 2
    elif len(s) == 16:
        base = 16
    elif len(s) == 64:
        base = 2
    digits = "0123456789abcdefABCDEF" if base == 16 else "01"
    if base is None or not all(c in digits for c in body):
        raise ValueError("invalid simhash: %r (16 hexadecimal or 64 binary digits)"
                         % (text[:24] + ("..." if len(text) > 24 else "")))
    return int(body, base)
