//! Configuration: every input resolved once, flag over scenario field over
//! store preset over default, into validated plans.

pub mod check;
pub mod resolve;
pub mod scenario;
