"""Runs the tutorial program (examples/tutorial.c) on the sample puzzle and
checks its output: it exits 0 and prints the board of the solution file,
line for line, after the line that ends the model's figures.

    python3 tutorial_test.py TUTORIAL PUZZLE SOLUTION
"""
import subprocess
import sys


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    exe, puzzle, solution = argv[1:]
    run = subprocess.run([exe, puzzle], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=60)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print("tutorial_test: the tutorial exited with status %d" % run.returncode)
        return 1
    with open(solution) as f:
        board = [line.rstrip("\n") for line in f if not line.startswith("#")]
    out = run.stdout.splitlines()
    for start in range(len(out) - len(board) + 1):
        if out[start:start + len(board)] == board:
            break
    else:
        print("tutorial_test: the output does not hold the board of %s" % solution)
        return 1
    if "the board keeps every rule" not in out:
        print("tutorial_test: the rule checker's verdict is missing")
        return 1
    print("tutorial_test: the tutorial printed the solution")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
