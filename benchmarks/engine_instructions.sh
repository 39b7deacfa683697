#!/bin/sh
# Instructions per simulated 4-player game, counted by valgrind (load-independent,
# unlike games/s on a shared machine): a run of N games minus a run of none (imports).
#
#   benchmarks/engine_instructions.sh [CHECKOUT] [GAMES]
#
# CHECKOUT (default: this one) is put first on PYTHONPATH, so two checkouts compare.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$here}
games=${2:-30}
python=${PYTHON:-$here/.venv/bin/python}
count() {
    PYTHONPATH=$tree valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$python" -c "
import random, sys
from engine.bots import BOTS
from engine.setup import new_game
from engine.simulate import game_seed, play
for i in range(int(sys.argv[1])):
    rng = random.Random(game_seed(1, i))
    names = ['P1', 'P2', 'P3', 'P4']
    play(new_game(names, rng), [BOTS['random']() for _ in names], rng)
" "$1" 2>&1 | sed -n 's/.*I *refs: *//p' | tr -d ,
}
base=$(count 0)
total=$(count "$games")
echo "$tree: $(( (total - base) / games )) instructions per game ($games games)"
