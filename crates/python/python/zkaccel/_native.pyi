from . import fields, merkle, mimc, models, ntt, poseidon, stark

__version__: str
__all__ = [
    "__version__",
    "fields",
    "merkle",
    "mimc",
    "models",
    "ntt",
    "poseidon",
    "stark",
]
