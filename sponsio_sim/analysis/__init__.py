"""pandas layer: turns kernel counts into tables, intervals and plots."""
