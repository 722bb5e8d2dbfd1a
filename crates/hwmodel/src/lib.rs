#![doc = include_str!("../README.md")]

pub mod amaze;
pub mod unizk;
