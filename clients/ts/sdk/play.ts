/**
 * "Play a seat": wait for the seat's decision (`GET …/legal-actions?wait=S`), ask a
 * chooser, send its command (`POST …/actions`, `Prefer: return=representation`, which
 * answers the next view and legal actions), until the match ends.
 */
import { ApiError } from "./client.js";
import type { ActionResult, Arena, Command, LegalActions, MatchView } from "./client.js";

/** The seat's view: a `MatchView.view` or an action's representation `view`. */
export type SeatView = MatchView["view"] | NonNullable<ActionResult["view"]>;

/** One decision of the seat. */
export interface Turn {
  /** The legal actions: never empty (`turn.actions[0]` is a command). */
  readonly actions: readonly [Command, ...Command[]];
  readonly view: SeatView;
  /** The match version the legal actions were computed at. */
  readonly version: number;
  readonly decisionId: string | null;
}

/** Picks one of `turn.actions` (it may also build an equivalent command). */
export type Chooser = (turn: Turn) => Command | Promise<Command>;

/** A chooser that plays the first legal action. */
export const firstAction: Chooser = (turn) => turn.actions[0];

/** Conflicts after which the loop just asks for the seat's decision again. */
const STALE = new Set(["decision_moved", "version_conflict", "match_finished"]);

/**
 * Plays `seat` (an {@link Arena} holding the seat's token) in `matchId` with `chooser`
 * until the match is no longer running; returns the final match view (with its result).
 * `waitS`: each long-poll's wait, 0-30 s. Errors: {@link ApiError} for any problem but a
 * stale decision (`decision_moved`, `version_conflict`, `match_finished`), which is
 * recovered from; whatever `chooser` throws.
 */
export async function playSeat(seat: Arena, matchId: string, chooser: Chooser,
                               waitS = 25): Promise<MatchView> {
  let legal: LegalActions | null = null;
  let view: SeatView | null = null;
  for (;;) {
    if (legal === null || legal.actions.length === 0) {
      legal = await seat.legalActions(matchId, waitS);
      view = null;
      if (legal.actions.length === 0) {
        const match = await seat.match(matchId);
        if (match.status !== "running") return match;
        continue;
      }
    }
    if (view === null) view = (await seat.match(matchId)).view;
    const [first, ...others] = legal.actions;
    if (first === undefined) continue;
    const command = await chooser({ actions: [first, ...others], view, version: legal.version,
                                    decisionId: legal.decision_id });
    let result: ActionResult;
    try {
      result = await seat.act(matchId, command, legal.decision_id);
    } catch (error) {
      if (error instanceof ApiError && error.code !== undefined && STALE.has(error.code)) {
        legal = null;
        continue;
      }
      throw error;
    }
    if (result.status !== undefined && result.status !== "running") return seat.match(matchId);
    legal = result.legal_actions ?? null;
    view = result.view ?? null;
  }
}
