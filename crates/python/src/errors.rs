//! Library errors as Python exceptions (`continuity.errors`): the message is
//! the library's, as the CLI prints it, and the class is the CLI's exit
//! code category: `InternalError` (1), `InputError` (2), `GovernanceError`
//! (4), all under `ContinuityError`. `NotAllowedError` (3, a preflight that
//! does not allow) is raised by `continuity.enforce` from the verdict.

use continuity_core::error::{Error, InputError};
use continuity_core::governance::GovernanceError;
use continuity_eval::replay::ReplayError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The CLI's exit code categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Exit 1.
    Internal,
    /// Exit 2: the message names the input and the problem.
    Input,
    /// Exit 4: a governance check failed closed.
    Governance,
}

impl Category {
    fn class_name(self) -> &'static str {
        match self {
            Category::Internal => "InternalError",
            Category::Input => "InputError",
            Category::Governance => "GovernanceError",
        }
    }

    fn of_error(e: &Error) -> Self {
        match e.exit_code() {
            2 => Category::Input,
            4 => Category::Governance,
            _ => Category::Internal,
        }
    }
}

/// A library error and the category it belongs to.
pub trait Categorized: std::error::Error {
    fn category(&self) -> Category;
}

impl Categorized for Error {
    fn category(&self) -> Category {
        Category::of_error(self)
    }
}

impl Categorized for InputError {
    fn category(&self) -> Category {
        Category::Input
    }
}

impl Categorized for GovernanceError {
    fn category(&self) -> Category {
        Category::Governance
    }
}

impl Categorized for ReplayError {
    fn category(&self) -> Category {
        match self {
            ReplayError::Input(_) | ReplayError::Session { .. } | ReplayError::Invalid(_) => {
                Category::Input
            }
            ReplayError::Pipeline(e) => Category::of_error(e),
            _ => Category::Internal,
        }
    }
}

/// A Python object that does not convert (not JSON-like).
impl Categorized for pythonize::PythonizeError {
    fn category(&self) -> Category {
        Category::Input
    }
}

/// The error and its causes, each once, as the CLI prints them after
/// `error: `.
pub fn chain(err: &dyn std::error::Error) -> String {
    let mut msg = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
        source = cause.source();
    }
    msg
}

/// The `continuity.errors` exception of `category` with `message`.
pub fn raise(category: Category, message: String) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("continuity.errors")
            .and_then(|m| m.getattr(category.class_name()))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(ty) => PyErr::from_type(ty, message),
            Err(e) => e,
        }
    })
}

/// A library error as its Python exception.
pub fn to_py<E: Categorized>(e: E) -> PyErr {
    raise(e.category(), chain(&e))
}

pub fn input(message: impl Into<String>) -> PyErr {
    raise(Category::Input, message.into())
}

pub fn internal(message: impl std::fmt::Display) -> PyErr {
    raise(Category::Internal, format!("internal error: {message}"))
}
