"""pandas layer: batches of games -> tidy tables, plots and reports."""

from caesar_sim.analysis.run import Batch, RunSettings, run_games
from caesar_sim.analysis.simulation import simulate
from caesar_sim.analysis.bids import bids
from caesar_sim.analysis.sweep import sweep
from caesar_sim.analysis.narrate import narrated_game
from caesar_sim.analysis.exploit import exploit

__all__ = ["Batch", "RunSettings", "run_games", "simulate", "bids", "sweep", "narrated_game", "exploit"]
