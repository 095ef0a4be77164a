//! The cost flags `size` and `compare` share: prices per million request
//! units and the daily volumes of the monthly total. No price is built in.

use clap::Args;

/// What the store charges, in the user's currency (none built in).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Costs")]
pub struct PriceArgs {
    /// Price per million write request units (one increment = 1 unit).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PRICE", allow_negative_numbers = true)]
    pub write_price: Option<f64>,
    /// Price per million read request units (one item read = 1 unit; a batch is billed per item).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PRICE", allow_negative_numbers = true)]
    pub read_price: Option<f64>,
    /// Price per GB-month of storage (refused where no design keeps item sizes).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PRICE", allow_negative_numbers = true)]
    pub storage_price: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "N", allow_negative_numbers = true,
        help = format!("Likes a day: for a monthly total (needs a price); reconcile: the likes whose \
            increments drift (default there {})", crate::output::fmt::num(crate::model::defaults::DEFAULT_LIKES_PER_DAY)))]
    pub daily_likes: Option<f64>,
    /// Views a day, for a monthly total (needs a price).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "N", allow_negative_numbers = true)]
    pub daily_views: Option<f64>,
}
