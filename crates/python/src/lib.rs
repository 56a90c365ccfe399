//! `continuity._continuity`: the Python extension module. It converts
//! between Python objects and the library's types and calls
//! `continuity-core`, `-models` and `-eval`; the GIL is released while they
//! work. The Python package around it (`python/continuity/`) adds the
//! framework hooks and the Ray batch jobs.

mod config;
mod errors;
mod measure;
mod ops;
mod request;
mod runtime;

use pyo3::prelude::*;

#[pymodule]
fn _continuity(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<config::Kernel>()?;
    m.add_class::<config::Policy>()?;
    m.add_class::<config::Key>()?;
    m.add_class::<runtime::TokenCounter>()?;
    m.add_class::<runtime::Summarizer>()?;
    m.add_class::<measure::Evaluator>()?;
    m.add_function(wrap_pyfunction!(ops::compact, m)?)?;
    m.add_function(wrap_pyfunction!(ops::plan, m)?)?;
    m.add_function(wrap_pyfunction!(ops::trigger, m)?)?;
    m.add_function(wrap_pyfunction!(ops::count_request, m)?)?;
    m.add_function(wrap_pyfunction!(ops::kernel_instructions, m)?)?;
    m.add_function(wrap_pyfunction!(ops::preflight, m)?)?;
    m.add_function(wrap_pyfunction!(measure::replay_conditions, m)?)?;
    m.add_function(wrap_pyfunction!(measure::replay_session, m)?)?;
    m.add("SUMMARIZERS", continuity_models::AVAILABLE.to_vec())?;
    m.add("DEFAULT_JUDGE", continuity_eval::evaluate::DEFAULT_JUDGE)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
