"""The types zkaccel's functions take: element arrays and the names of their choices.

``Words`` is the array type every kernel takes and returns; the ``Literal`` aliases list the
names each choice argument accepts (a type checker catches a misspelt preset; at run time an
unknown name raises ``InvalidInputError``).
"""

from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

#: Element arrays: ``uint64`` (Goldilocks), or ``uint64`` with a trailing axis of four
#: little-endian limbs (BN254, BLS12-381).
Words: TypeAlias = npt.NDArray[np.uint64]

#: The prime fields of element arrays.
FieldName: TypeAlias = Literal["goldilocks", "bn254", "bls12-381"]
#: Poseidon presets and Merkle tree presets (the standard each matches).
PoseidonPreset: TypeAlias = Literal["plonky2", "neptune", "circomlib"]
#: neptune's strengths.
Strength: TypeAlias = Literal["standard", "strengthened"]
#: MiMC presets.
MimcPreset: TypeAlias = Literal["circomlib", "gnark", "ethsnarks", "circomlib-sponge"]
#: NTT input and output orders: natural (``n``) or bit-reversed (``r``).
Order: TypeAlias = Literal["nn", "nr", "rn", "rr"]
#: Batch layouts.
Layout: TypeAlias = Literal["polynomial-major", "index-major"]
#: What a low-degree extension's input holds.
LdeInput: TypeAlias = Literal["coefficients", "evaluations"]
#: The shipped AIRs.
Air: TypeAlias = Literal["fibonacci", "factorial"]
#: The named STARK configurations.
StarkConfigName: TypeAlias = Literal["standard-fast", "small-proofs"]
#: STARK proof file encodings.
Encoding: TypeAlias = Literal["zkaccel", "plonky2"]
#: The FPGA NTT cores the model knows.
NttCore: TypeAlias = Literal["ours", "pipezk", "pipelined"]
#: UniZK model modes.
UnizkMode: TypeAlias = Literal["paper", "unizk-sim"]
#: The models whose sweeps `models.write_sweep` writes.
SweepModel: TypeAlias = Literal["unizk", "ntt-fpga", "acclmt"]

__all__ = [
    "Air",
    "Encoding",
    "FieldName",
    "LdeInput",
    "Layout",
    "MimcPreset",
    "NttCore",
    "Order",
    "PoseidonPreset",
    "StarkConfigName",
    "Strength",
    "SweepModel",
    "UnizkMode",
    "Words",
]
