"""Every limit the engine enforces, named once. Each has a test at and past it."""

MAX_CARDS = 208  # cards in one game, all packs together
MAX_FILE_BYTES = 2_000_000  # size of a .cardz file
# every number a game file gives (whole or not) is within -MAX_FILE_NUMBER..MAX_FILE_NUMBER, unless
# its field says less: a count, a value or a coordinate past it means nothing, and huge ones would
# overflow a conversion or make dealing build vast lists
MAX_FILE_NUMBER = 1_000_000
MAX_NESTING = 64  # JSON nesting depth of a game file or a document (board, move, log)
MAX_DOCUMENT_BYTES = 16_000_000  # size of a board, move or log document given to a command
MAX_SEED = 2**64 - 1  # seeds are 0..MAX_SEED in every command (the generator's state is 64 bits)
# the deals a Gymnasium reset draws are 0..ADAPTER_MAX_DEAL: OpenSpiel's int parameters are 32-bit,
# so the OpenSpiel game takes each as its seed, and Gymnasium's vector info arrays are int64
ADAPTER_MAX_DEAL = 2**31 - 1
# deals a Gymnasium reset draws in a row before it gives up finding one not over as dealt
RESET_MAX_DRAWS = 1_000
# digits a whole-number flag is read with: more than any flag's limit has (MAX_SEED has 20), so a
# longer number is past every limit and refused by its length (int() refuses 4,300 and more)
FLAG_MAX_DIGITS = 30
MAX_EXPR_CHARS = 2000  # characters in one rule expression
MAX_DEPOTS = 512  # depots after `repeat` expansion
MAX_REPEAT = 208  # copies one `repeat` may create
MAX_CASCADE = 10_000  # automatic moves and trigger runs after one move
MAX_BUILD_STEP = 12  # `build.step` range is 0..MAX_BUILD_STEP
MAX_LOG_STEPS = 100_000  # steps (moves and undos) in one cardz-log/1
MAX_EXPR_DEPTH = 100  # nesting levels in one rule expression (keeps compile and run shallow)
# every number an expression writes or computes is within -MAX_EXPR_INT..MAX_EXPR_INT: exact as a
# JSON number read as a double, and a sum of two fits 64 bits; so no expression can grow a number
# without bound (a chain of products under `let` would square its size at each step)
MAX_EXPR_INT = 2**53 - 1
MAX_MS_DEAL = 2**31 - 1  # Microsoft FreeCell deal numbers are 1..MAX_MS_DEAL (the generator's seed range)
MAX_PORT = 65_535  # the highest TCP port `cardz serve --port` may listen on (0: any free port)
SOLVE_DEFAULT_STATES = 2_000_000  # positions `cardz solve` searches unless told otherwise
SOLVE_DEFAULT_SECONDS = 60.0  # seconds `cardz solve` searches unless told otherwise
SOLVE_MAX_STATES = 50_000_000  # the most positions one search may be asked to record
MAX_SIM_GAMES = 10_000_000  # deals one `cardz simulate` run may play
SIM_MAX_MOVES = 1000  # default move cap per simulated game; past it the game is "unfinished"
MAX_SIM_MAX_MOVES = 1_000_000  # the largest move cap `--max-moves` accepts
MAX_SIM_WORKERS = 256  # worker processes (or local Ray CPUs) `cardz simulate --workers` accepts
MAX_SIM_VARIANTS = 8  # game files one `cardz simulate` run plays on the same deals
MAX_OUTCOMES = 100_000  # outcomes one `outcomes` call lists (ask for fewer with a limit)
# the work one `outcomes` call may do: each play of the move counts 1 plus the unknown cards a play
# of it turns up (one card of 45 unknown: 46 plays, 92; the 10 likeliest of three: 2,036, 8,144)
MAX_OUTCOME_WORK = 25_000
PLANNER_DEFAULT_NODES = 2_000  # positions `expectimax` expands per move unless told otherwise
# positions `sampling` shares out per decision unless told otherwise in a one-way game (Golf), where
# the solver's model runs at millions a second and one drawn deal needs tens of thousands
SAMPLING_ONE_WAY_NODES = 160_000
PLANNER_MAX_NODES = 10_000_000  # the most positions a planner may be asked to expand per move
PLANNER_MAX_SECONDS = 3_600.0  # the longest a planner may be asked to think about one move
PLANNER_MAX_GAME_NODES = 10_000_000_000  # the most positions a planner may spend on one game
USUAL_SOLVE_STATES = 20_000  # positions `usual` looks ahead when it sees every card
PLANNER_MAX_DEALS = 1_000  # the most deals the sampling planner may solve per decision
BANDIT_MAX_SAMPLES = 100_000  # the most child solves the bandit planner may make per decision
KLONDIKE_MAX_SAMPLES = 1_000_000  # the most child solves the klondike planner may make per decision
EXPECTIMAX_MAX_DEPTH = 50  # chance layers expectimax may search (its node budget bounds it first)
EXPECTIMAX_MAX_SAMPLES = 1_000  # outcomes expectimax may draw for one chance node
EXPECTIMAX_MAX_WIDTH = 1_000  # chance nodes per closure expectimax may search on
VALUE_MAX_SAMPLES = 10_000  # outcomes the value planner may draw to weigh one move
# (src/solver/klondike/sampled.rs: MAX_SAMPLES)
PLAY_MAX_MOVES = 2_000  # moves `cardz play` makes with a planner before calling the game unfinished
SERVE_MAX_SESSIONS = 64  # games `cardz serve` keeps open at once (browser tabs); past it the one used longest ago closes
SERVE_MAX_MESSAGE = 1_000  # characters of a refusal `cardz serve` sends; a longer one (quoting its input) is cut
SERVE_MAX_PROBLEMS = 100  # problems a refusal of `cardz serve` lists; the rest are counted, not sent
SERVE_READ_SECONDS = 30.0  # how long `cardz serve` waits on a client that stopped sending a request
SERVE_MAX_GAMES = 16  # compiled games `cardz serve` keeps for reuse; past it the one used longest ago is dropped
MAX_CACHE_ENTRY_BYTES = 8_000_000  # one entry of the program cache (a game's expression programs)
MAX_CACHE_ENTRIES = 512  # entries the program cache folder keeps; past it the one read longest ago goes
