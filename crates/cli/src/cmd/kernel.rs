//! `continuity kernel`: the Mission Kernel's template and canonical hash.

use std::path::PathBuf;

use anyhow::Context;
use continuity_core::error::{InputError, Source};
use continuity_core::io;
use continuity_core::kernel::{MissionKernel, TEMPLATE};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Write a commented kernel template (to stdout without PATH)
    Init {
        path: Option<PathBuf>,
        /// Overwrite an existing file
        #[arg(long)]
        force: bool,
    },
    /// Print the kernel's canonical sha256 (the value for its `sha256` key)
    Hash { path: PathBuf },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Init { path: None, .. } => print!("{TEMPLATE}"),
        Command::Init {
            path: Some(p),
            force,
        } => {
            if p.exists() && !force {
                return Err(InputError::BadOutputDir {
                    path: p.clone(),
                    message: "already exists; pass --force to overwrite".into(),
                }
                .into());
            }
            std::fs::write(&p, TEMPLATE).with_context(|| format!("writing {}", p.display()))?;
            eprintln!("wrote {}", p.display());
        }
        Command::Hash { path } => {
            let kernel =
                MissionKernel::parse_unchecked(&io::read_text(&path)?, &Source::path(&path))?;
            println!("{}", kernel.sha256);
            match kernel.pinned_hash() {
                Some(pinned) if pinned.eq_ignore_ascii_case(&kernel.sha256) => {
                    eprintln!("pinned sha256 matches")
                }
                Some(pinned) => eprintln!("pinned sha256 {pinned} does NOT match"),
                None => eprintln!("not pinned: add  sha256 = \"{}\"  to pin it", kernel.sha256),
            }
        }
    }
    Ok(())
}
