// Types of the public HTTP API for the JSDoc of this client: the schemas openapi-typescript
// generates from openapi.yaml (clients/ts: `npm ci && npm run check` runs tsc --checkJs over
// these files). Comments only: the browser loads an empty module.

/** @typedef {import("../../../clients/ts/openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Game"]} Game */
/** @typedef {{games: Game[]}} GameList */
/** @typedef {Schemas["GameCards"]} GameCards */
/** @typedef {Schemas["CreatedMatch"]} CreatedMatch */
/** @typedef {Schemas["SeatToken"]} SeatToken */
/** @typedef {Schemas["LobbyPage"]} LobbyPage */
/** @typedef {Schemas["LobbyItem"]} LobbyItem */
/** @typedef {Schemas["MatchView"]} MatchView */
/** @typedef {Schemas["LegalActions"]} LegalActions */
/** @typedef {Schemas["EventPage"]} EventPage */
/** @typedef {Schemas["Envelope"]} Envelope */
/** @typedef {Schemas["StateView"]} StateView */
/** @typedef {Schemas["VerifyReport"]} VerifyReport */
/** @typedef {Schemas["Analysis"]} Analysis */
/** @typedef {Schemas["AnalysisResult"]} AnalysisResult */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["CreatedPlayer"]} CreatedPlayer */
/** @typedef {Schemas["PlayerProfile"]} PlayerProfile */
/** @typedef {Schemas["PlayerMatchPage"]} PlayerMatchPage */
/** @typedef {Schemas["Rating"]} Rating */
/** @typedef {Schemas["Leaderboard"]} Leaderboard */

export {};
