from checkpoints.cli import run

run()
