"""Names vulture (dead-code finder; pyproject.toml ``[tool.vulture]``, run by
tests/unit/test_dead_code.py) cannot see used, each with who uses it.

Functions registered by a decorator (fold handlers ``@_on``, effect ops ``@_op``, Flask
views and error handlers, click commands, marshmallow hooks) are not listed: the config's
``ignore_decorators`` covers them. Everything else here is called by a framework, by name,
or only from tests and benchmarks (which vulture does not scan). A name that is truly
unused is removed from the code, never added here.
"""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# -- Flask and werkzeug read these class attributes / hooks --------------------------------
_.sort_keys  # api/app.py: the JSON provider's settings
_.ensure_ascii  # api/app.py
_.json_provider_class  # api/app.py: Flask picks the provider class
_.strict_slashes  # api/app.py: url_map setting
_.merge_slashes  # api/app.py: url_map setting
_.arena_client_key  # api/limits.py: per-request cache on flask.g (read with g.get)
_.arena_service  # api/runtime.py: per-request cache on flask.g (read with g.get)
_.log_request  # cli/serve.py: werkzeug request handler override
_.on_exit  # api/gunicorn_config.py: gunicorn server hook (called by name)

# -- marshmallow reads these -----------------------------------------------------------------
_.Meta  # api/schemas.py: schema options (unknown = EXCLUDE)
_.format  # api/schemas.py: the "format" field of the export schema

# -- gunicorn calls these (worker class by dotted path, socket and config hooks) -------------
_.ProblemThreadWorker  # api/wire_errors.py: worker_class in api/gunicorn_config.py
_.cancelled  # api/request_threads.py: Finished, read by gthread's finish_request
_.get_thread_pool  # api/wire_errors.py: gthread calls it in init_process
_.enqueue_req  # api/wire_errors.py: gthread calls it for each readable connection
_.gettimeout  # api/wire_errors.py: socket wrapper methods gunicorn calls
_.setblocking
_.sendall
_.send_error  # api/wire_errors.py: gunicorn's error page hook
_.WORKER_CLASS  # cli/serve.py: read by tests and the deploy configs
_.load_config  # cli/serve.py: gunicorn BaseApplication hook

# -- click calls these ----------------------------------------------------------------------
_.list_commands  # cli/main.py: lazy command group
_.get_command

# -- RQ calls these (job functions by dotted path, Worker/Scheduler hooks and state) ---------
_.bot_turn  # workers/jobs.py: enqueued as "workers.jobs.bot_turn"
_.turn_timeout  # workers/jobs.py: enqueued as "workers.jobs.turn_timeout"
_.death_penalty_class  # workers/embedded.py: RQ Worker setting
_._install_signal_handlers  # workers/embedded.py: RQ Worker hook
_.dequeue_timeout  # workers/embedded.py: RQ Worker property
_._stop_requested  # workers/embedded.py: RQ Worker state
_._state  # workers/lean_worker.py: RQ Worker state
_._status  # workers/rq_runtime.py, workers/turn_queue.py: RQ scheduler / queue state
_.lock_acquisition_time  # workers/rq_runtime.py: RQ scheduler state
_.auto_start  # workers/rq_runtime.py: RQScheduler.acquire_locks's signature
_.enqueue_at_front  # workers/scheduling.py: RQ job attribute

# -- called by name ---------------------------------------------------------------------------
_._each  # domain/games/ai_100_human/scoring/region_plans.py: getattr(self, "_" + rule)
_._different
_._generic
_.current_version  # service/usecases/act.py: a field of the named result Appended

# -- engine hooks a game may implement (domain/engine.py, domain/estimates.py) ----------------
_.estimator  # EngineBase.estimator: the match-analysis hook (no caller yet in the server)
_.Estimator
_.estimate

# -- the game test settings (domain/testing.py) read by the generic tests --------------------
_.private
_.unseen
_.listing_keys
_.secrecy
_.leak_check_every
_.all_modes
_.testing_of
_.package_of  # domain/games/__init__.py: tests/support/game_settings.py

# -- reference semantics and operator tools used by tests and benchmarks ---------------------
_.score_neighbour  # ai_100_human scoring: the reference the compiled plans are checked against
_.evaluate  # ai_100_human scoring/effects.py: the board evaluators' reference
_.last_rollouts  # ai_100_human expert: rollouts of the last decision (tests, bot options)
_.to_env  # service/config.py: Config -> environment (tests, cli worker)
_._record  # service/match_service.py: tests read the record
_._deadlines  # service/match_service.py: tests read the deadlines
_.archive_due  # service/match_service.py: benchmarks/fault_archive_kill.py, tests
_.match_count  # service/store/match_index.py: tests
_.aligned  # service/store/slots.py: tests/integration/test_event_store.py
_.scheduled_at  # workers/scheduling.py: tests
_.analyse_decision  # domain/analysis.py: one decision's entry, unsplit (tests of every game)

# -- A.I.Pokalypse: used only by its tests (its package is being reworked, issue 19 item 3) --
_.unbatch  # domain/games/aipokalypse/batching.py: tests/unit/aipokalypse
_.STATIC_OPS  # domain/games/aipokalypse/vocabulary.py: tests/unit/aipokalypse
_.BATTLE_OPS
_.left_neighbour  # domain/games/aipokalypse/effects/resolve.py: tests/unit/aipokalypse

# -- players and ratings: called from tests only (the facade's no-storage replay; the
#    PostgreSQL history read a rating curve is drawn from) and a click command by name --------
_.ratings_replay  # service/match_service.py: tests/unit/test_players_ratings.py (replay = rebuild)
_.rating_curve  # service/store/archive_store.py: tests/unit/test_players_ratings.py (PG history)
_.calibrate  # cli/ratings.py: `arena ratings calibrate` (click command registered on `ratings`)

# inspect.unwrap reads it: api.gunicorn_config.post_worker_init finds the Flask app under the wrapper
_.__wrapped__  # api/wire_errors.py closing_when_body_unread
