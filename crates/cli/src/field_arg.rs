//! `--field`: a field of the registry ([`zkaccel_registry::FieldId`]), among the ones a
//! command offers, with the names (and aliases) listed in `--help` and in the error for any
//! other value.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use zkaccel_registry::FieldId;

/// The scalar fields the software commands offer (`field`, `poseidon params`).
pub const SCALAR_FIELDS: &[FieldId] = &[FieldId::Goldilocks, FieldId::Bn254, FieldId::Bls12_381];

/// A value parser for `--field` that accepts the fields of `offered` by name or alias.
#[derive(Clone, Copy, Debug)]
pub struct FieldArg(pub &'static [FieldId]);

impl FieldArg {
    fn values(self) -> impl Iterator<Item = PossibleValue> {
        self.0.iter().map(|id| {
            PossibleValue::new(id.name())
                .aliases(id.aliases().iter().copied())
                .help(description(*id))
        })
    }
}

/// What `--help` says of a field.
fn description(id: FieldId) -> &'static str {
    match id {
        FieldId::Goldilocks => "p = 2^64 − 2^32 + 1",
        FieldId::Bn254 => "BN254's scalar field",
        FieldId::Bls12_381 => "BLS12-381's scalar field",
        FieldId::Bls12_377Fq => "BLS12-377's base field (377 bits)",
    }
}

impl TypedValueParser for FieldArg {
    type Value = FieldId;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<FieldId, clap::Error> {
        let name = PossibleValuesParser::new(self.values()).parse_ref(cmd, arg, value)?;
        FieldId::parse_among(&name, self.0)
            .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, e).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values()))
    }
}
