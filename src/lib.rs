pub fn x() {}

pub mod llm;
