//! The differential tester's parts: seeded generators of random AIGER and BTOR2 models, the
//! oracle that checks one model with every tool and checker, and the campaign over many.

pub mod campaign;
pub mod gen_aiger;
pub mod gen_btor2;
pub mod oracle;
pub mod rng;

pub use campaign::Campaign;
pub use oracle::Oracle;
