"""The exceptions zkaccel raises.

Every error the library reports is a :class:`ZkaccelError`; each subclass also derives from
the built-in exception a Python user would catch for it, so ``except ValueError`` keeps
working.

The class follows the Rust error's ``zkaccel_codec::ErrorClass``, the same classification
that picks the ``zkaccel`` CLI's exit status: ``VerificationError`` is the CLI's exit 1, the
other classes its exit 2.
"""


class ZkaccelError(Exception):
    """Base class of every error zkaccel raises (its message is the Rust error's)."""


class InvalidInputError(ZkaccelError, ValueError):
    """Values, shapes or parameters the library refuses: a non-canonical field element, a
    length that is not a power of two, an unknown preset, a malformed commitment."""


class VerificationError(ZkaccelError, ValueError):
    """A proof or an opening that does not verify against its statement or commitment:
    bytes that are not a proof's encoding (cut short, a byte flipped), a proof of another
    shape or statement, or a well-formed proof that is false. A Merkle opening and a STARK
    proof are classified alike."""


class ResourceError(ZkaccelError, MemoryError):
    """Work that does not fit its memory budget (or an allocation that failed)."""


class StorageError(ZkaccelError, OSError):
    """A file or directory that cannot be read or written."""


__all__ = [
    "ZkaccelError",
    "InvalidInputError",
    "VerificationError",
    "ResourceError",
    "StorageError",
]
