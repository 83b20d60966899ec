"""`sponsio report`: the designer report, built from the installed package."""

from tabletop_mc.reportcli import report_command
from sponsio_sim.cli.root import main


def _build():
    from sponsio_sim.analysis.reports import build_reports
    return build_reports


report_command(main, "sponsio", _build, "sponsio report --out reports/sponsio --scale 0.05", folders=("grading",))
