"""pandas layer: batches of games -> tidy tables, plots and reports."""

from caesar_sim.analysis.game.runs import Batch, RunSettings, run_games
from caesar_sim.analysis.game.simulation import simulate
from caesar_sim.analysis.game.bids import bids
from caesar_sim.analysis.balance.sweep import sweep
from caesar_sim.analysis.game.narrate import narrated_game
from caesar_sim.analysis.game.exploit import exploit

__all__ = ["Batch", "RunSettings", "run_games", "simulate", "bids", "sweep", "narrated_game", "exploit"]
