/** Go standard-library behaviour node-check reproduces, so predictions read like kubelet's. */
export { goQuote, goTimeQuote, isGoPrint } from './quote.js';
export { parseGoDuration, formatGoDuration } from './duration.js';
export { parseGoUrl, type GoUrl, type GoUrlParseResult } from './url.js';
export { goSplitHostPort, type SplitHostPortResult } from './net.js';
export { goClean, goJoin, goMatch, isCleanRootedPath, ERR_BAD_PATTERN, type GoMatchResult } from './filepath.js';
export { goJsonCheckValid, parseGoJson, goJsonFoldKey, goJsonMarshalString, type GoJson, type GoJsonMember } from './json.js';
export { compareGoStrings, goBytesToString } from './utf8.js';
export { goAtoi, goParseBool, goParseInt, goParseUint, goTrimSpace, type GoNumResult } from './strconv.js';
