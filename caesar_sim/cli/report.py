"""`caesar report`: the designer report, built from the installed package."""

from tabletop_mc.reportcli import report_command
from caesar_sim.cli.root import main


def _build():
    from caesar_sim.analysis.reports import build_reports
    return build_reports


report_command(main, "caesar", _build, "caesar report --out reports/caesar --scale 0.05")
