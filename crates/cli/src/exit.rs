//! Exit codes: 0 success; 1 internal error; 2 bad input; 3 a governance
//! check said no; 4 a governance check failed closed; 5 the target is below
//! what must be kept (`Error::OverBudget`: nothing written, the message
//! names what is too big).

use std::process::ExitCode;

use continuity_core::error::{Error, InputError};
use continuity_core::governance::GovernanceError;
use continuity_eval::retention::RetentionError;

/// A finished command whose outcome is a non-zero exit code, not an error
/// message: 3 = a governance check said no.
#[derive(Debug)]
pub struct Exit(pub u8);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}", self.0)
    }
}

impl std::error::Error for Exit {}

/// A command line that cannot be carried out as given (exit 2, as clap's
/// own usage errors).
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// `Err(Exit(3))` when a check did not pass.
pub fn unless(passed: bool) -> anyhow::Result<()> {
    if passed {
        Ok(())
    } else {
        Err(Exit(3).into())
    }
}

/// The process exit code of a command's result; errors are printed first.
pub fn code(result: anyhow::Result<()>) -> ExitCode {
    let Err(err) = result else {
        return ExitCode::SUCCESS;
    };
    if let Some(Exit(code)) = err.downcast_ref::<Exit>() {
        return ExitCode::from(*code);
    }
    eprintln!("error: {}", error_chain(&err));
    let code = err
        .downcast_ref::<Error>()
        .map(Error::exit_code)
        .or_else(|| err.downcast_ref::<InputError>().map(|_| 2))
        .or_else(|| err.downcast_ref::<Usage>().map(|_| 2))
        .or_else(|| err.downcast_ref::<GovernanceError>().map(|_| 4))
        .or_else(|| {
            err.downcast_ref::<RetentionError>()
                .map(RetentionError::exit_code)
        })
        .unwrap_or(1);
    ExitCode::from(code as u8)
}

/// The error and its causes, each cause once: library errors often quote
/// their source in their own message already.
fn error_chain(err: &anyhow::Error) -> String {
    let mut msg = err.to_string();
    for cause in err.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    msg
}
