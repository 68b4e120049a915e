// The mutants that survive in the parts the mutation goal covers, each with why: equivalent (no
// test can tell it from the code), performance (only speed or memory change; guarded by the
// benchmarks, not unit tests) or open (a behaviour still without a test, and the test that would
// kill it). Reads a Stryker JSON report, prints markdown:
//   node scripts/mutation-survivors.mjs reports/mutation/mutation.json > docs/mutation-survivors.md
// Line ranges refer to the sources as of the report; re-check them after moving code (on
// 2026-11-27, third session, they were moved with the code split for issue 21: the same line's
// text found in its new file).
import { readFileSync } from 'node:fs';

const GOAL =
  /^src\/(api\/http\/|api\/channel\/download\.ts|domain\/trace\/|domain\/jobStatus\.ts|state\/traceFollower\.ts)/;

/** @typedef {'equivalent' | 'performance' | 'open' | 'killed since'} Kind */
/** @typedef {{ status: string, mutatorName: string, replacement?: string, location: { start: { line: number, column: number } } }} Mutant */

/** @type {[file: string, first: number, last: number, kind: Kind, reason: string, column?: number][]} */
const RULES = [
  [
    'src/api/http/bodyCollector.ts',
    20,
    21,
    'equivalent',
    'a chunk that ends or starts exactly at keepFrom: the other branch keeps an empty piece or the same bytes',
  ],
  [
    'src/api/http/redact.ts',
    53,
    53,
    'performance',
    'the cache of secret patterns: a new pattern each time finds the same spellings',
  ],
  ['src/api/http/transport.ts', 89, 89, 'performance', "the connection pool's keep-alive and size"],
  [
    'src/api/http/credentialHeaders.ts',
    16,
    16,
    'equivalent',
    'without credentials there is no secret; a made-up one never appears in a message',
  ],
  [
    'src/api/http/linkHeader.ts',
    35,
    35,
    'killed since',
    '`pagination.test.ts`: the first link of a rel given twice is kept, an empty rel is none (added after the run)',
  ],
  // Classified 2026-11-27 (second session), in the sources as of that day's forced run. A sixth
  // element limits a rule to the mutant starting at that column.
  [
    'src/domain/trace/traceStyle.ts',
    134,
    134,
    'equivalent',
    "Number('') is 0 too, so an empty field reads as 0 without the shortcut",
  ],
  [
    'src/domain/trace/traceStyle.ts',
    136,
    136,
    'equivalent',
    'a negative whole number is no code and no colour, as the -1 for anything else is',
    37,
  ],
  [
    'src/domain/trace/traceStyle.ts',
    184,
    184,
    'equivalent',
    'split gives every field with a colon a first and a second part: the fallback is never read',
  ],
  [
    'src/domain/trace/traceStyle.ts',
    186,
    186,
    'equivalent',
    'split gives every field with a colon a first and a second part: the fallback is never read',
  ],
  [
    'src/domain/trace/traceStyle.ts',
    190,
    190,
    'equivalent',
    'split gives every field with a colon a first and a second part: the fallback is never read',
  ],
  [
    'src/domain/trace/traceParser.ts',
    258,
    258,
    'equivalent',
    'the flag is read only at the start of a runner line, which only a line feed begins, and a line feed sets it again',
  ],
  [
    'src/domain/trace/traceParser.ts',
    406,
    406,
    'equivalent',
    'the character before the ESC is read again as an escape follower, which never takes the ESC itself (charset names are printable, `[` and `]` sequences end at an ESC): the ESC starts its sequence either way',
  ],
  [
    'src/api/channel/download.ts',
    175,
    175,
    'equivalent',
    'labels start with their method and hold `GET ` nowhere else',
    94,
  ],
  [
    'src/api/channel/download.ts',
    285,
    285,
    'equivalent',
    'bytes are counted only after the resume state was read, so a download that broke off after some bytes has it',
  ],
  [
    'src/api/http/errors.ts',
    356,
    356,
    'equivalent',
    'JSON has no undefined: a message list from JSON.parse holds null, never undefined',
  ],
  [
    'src/api/http/certificates.ts',
    54,
    54,
    'equivalent',
    'Node gives every peer certificate a subject and an issuer object (empty when the certificate names none; checked with openssl -subj /)',
  ],
  [
    'src/api/http/certificates.ts',
    61,
    61,
    'equivalent',
    "a certificate's DER is never empty, so its base64 always has a first line",
  ],
  ['src/api/http/certificates.ts', 114, 114, 'equivalent', "`ca: undefined` is Node's default"],
  [
    'src/api/http/certificates.ts',
    129,
    129,
    'equivalent',
    'the detailed form adds the issuer chain; the fields read from it are the same',
  ],
  [
    'src/api/http/proxy.ts',
    30,
    31,
    'equivalent',
    'a rule whose part after the last colon is not all digits, or whose colon comes first or not at all, names no host either way (host names hold no colon, numeric last labels are IPv4 addresses, and addresses match whole)',
  ],
  [
    'src/api/http/pagination.ts',
    235,
    235,
    'performance',
    'which pages are read ahead, and the length remembered for the next read: the items are the same (every pagination test compares whole lists)',
  ],
  [
    'src/api/http/requestRules.ts',
    72,
    72,
    'equivalent',
    "the sleep starts in the same turn as the failed attempt's checks, which already end a cancelled call: no abort can come in between",
  ],
  [
    'src/api/http/transport.ts',
    158,
    158,
    'equivalent',
    "a write's broken or late reply is an UncertainWriteError from the body reader, never a NetworkError, so this check never sees a write",
  ],
  [
    'src/api/http/transport.ts',
    182,
    182,
    'equivalent',
    'every NetworkError the body reader throws has the stage reply',
  ],
  [
    'src/api/http/transport.ts',
    441,
    441,
    'equivalent',
    "the back-off sleep rejects only when the caller's signal aborted, and the next attempt then ends as cancelled before it is sent",
  ],
  [
    'src/api/http/failureKinds.ts',
    24,
    24,
    'equivalent',
    'the caller retries only reads (it checks the method too), and this is a write',
    95,
  ],
  ['src/api/http/bodyReader.ts', 50, 50, 'equivalent', "undici's body errors always carry a code"],
  ['src/api/http/bodyReader.ts', 52, 52, 'equivalent', 'a HEAD reply has no body to break'],
  [
    'src/api/http/requestRules.ts',
    116,
    117,
    'equivalent',
    'JSON.parse throws a SyntaxError with a message; the content type fallback only feeds an html test that an empty text fails as well',
  ],
  [
    'src/api/http/requestRules.ts',
    120,
    120,
    'equivalent',
    'Number(undefined) is NaN, and NaN >= length is false',
    7,
  ],
  // Killed since the last run, by tests added after it started (each seen failing with the mutant put in by hand).
  [
    'src/domain/trace/traceParser.ts',
    247,
    247,
    'killed since',
    '`traceGrammar.test.ts`: timestamp-shaped text after an escape mid-line',
  ],
  [
    'src/domain/trace/traceParser.ts',
    269,
    269,
    'equivalent',
    'no text is -1 or +1 for the caller, and neither is a character that ends a section marker',
  ],
  [
    'src/domain/trace/traceParser.ts',
    457,
    457,
    'killed since',
    '`traceGrammar.test.ts`: a snapshot of the open line keeps what it showed when more of the line arrives (added after the run)',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    209,
    209,
    'killed since',
    '`traceGrammar.test.ts`: a removed marker leaves no empty span',
  ],
  [
    'src/domain/trace/traceSections.ts',
    85,
    85,
    'killed since',
    '`traceGrammar.test.ts`: a section closed before its header leaves the others waiting',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    37,
    37,
    'killed since',
    '`traceGrammar.test.ts`: only start: and end: follow section_',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    44,
    44,
    'killed since',
    '`traceGrammar.test.ts`: digits not followed by a colon (section_start:12ab)',
  ],
  [
    'src/api/http/errors.ts',
    19,
    184,
    'killed since',
    '`errorWording.test.ts`: each class carries its own name',
  ],
  [
    'src/api/http/errors.ts',
    194,
    194,
    'killed since',
    '`errorWording.test.ts`: a write accepted, never a read',
  ],
  ['src/api/http/errors.ts', 238, 238, 'equivalent', 'exactly 10 MB reads "10 MB" either way'],
  [
    'src/api/http/pagination.ts',
    104,
    104,
    'killed since',
    '`pagination.test.ts`: pages numbered from the request without X-Page / X-Per-Page',
  ],
  [
    'src/api/http/pagination.ts',
    236,
    236,
    'performance',
    'following the link of an empty page read ahead costs one request; the next empty page ends the list the same',
  ],
  [
    'src/api/http/pagination.ts',
    269,
    269,
    'killed since',
    '`pagination.test.ts`: an empty page ends a keyset list, even with a next link',
  ],
  // src/domain/trace/traceParser.ts, the rest
  ['src/domain/trace/traceParser.ts', 264, 264, 'equivalent', "'' + run is run"],
  [
    'src/domain/trace/traceParser.ts',
    278,
    278,
    'performance',
    'ESC [ taken through the step-by-step states reads the same',
  ],
  [
    'src/domain/trace/traceParser.ts',
    292,
    292,
    'equivalent',
    'a private marker in SGR parameters is no number, and the SGR reader ignores what is not a number',
  ],
  [
    'src/domain/trace/traceParser.ts',
    342,
    342,
    'equivalent',
    'stepping back re-reads the ESC, which restarts the same sequence',
  ],
  [
    'src/domain/trace/traceParser.ts',
    364,
    364,
    'equivalent',
    'a private marker in SGR parameters is no number, and the SGR reader ignores what is not a number',
  ],
  ['src/domain/trace/traceParser.ts', 472, 474, 'equivalent', 'the one-span shortcut makes the same spans'],
  [
    'src/domain/trace/traceParser.ts',
    490,
    490,
    'equivalent',
    'a line without a time gets time: undefined, read the same',
  ],
  [
    'src/domain/trace/traceParser.ts',
    501,
    501,
    'performance',
    'closing the span first and joining the texts gives the same line text',
  ],
  [
    'src/domain/trace/traceParser.ts',
    507,
    507,
    'equivalent',
    'a marker looked for at -1 does not parse either',
  ],
  [
    'src/domain/trace/traceParser.ts',
    526,
    526,
    'equivalent',
    'after a start marker the open line is empty, so a following CR state clears nothing',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    206,
    206,
    'equivalent',
    'one more round with nothing left to remove puts the last span back whole',
  ],
  [
    'src/domain/trace/traceSections.ts',
    63,
    63,
    'performance',
    'without retained lines the open sections are reported; the full list only costs memory',
  ],
  [
    'src/domain/trace/traceSections.ts',
    74,
    74,
    'equivalent',
    'the only caller passes the flag; starting the search past the end walks down to the same section',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    43,
    84,
    'equivalent',
    'charCodeAt past the end is NaN, which is no digit, name character or colon',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    152,
    152,
    'equivalent',
    'the empty option after a trailing comma is no collapsed=true',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    177,
    177,
    'equivalent',
    'a CR after any character is tried as a marker end; the marker parser refuses what is not one',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    185,
    185,
    'equivalent',
    'a control character after ESC is handled as text either way (the drop happens in the text loop)',
  ],
  // src/domain/trace/traceStyle.ts
  ['src/domain/trace/traceStyle.ts', 65, 70, 'performance', 'the transition cache of the style table'],
  [
    'src/domain/trace/traceStyle.ts',
    112,
    112,
    'equivalent',
    'a missing parameter reads as empty, which is 0',
  ],
  [
    'src/domain/trace/traceStyle.ts',
    171,
    171,
    'equivalent',
    'a missing colour mode is no known mode either way',
  ],
  // more of src/api
  ['src/api/http/errors.ts', 277, 277, 'equivalent', 'split always returns a first element'],
  ['src/api/http/certificates.ts', 20, 25, 'equivalent', 'type-only declarations'],
  // src/domain/trace/traceParser.ts
  [
    'src/domain/trace/traceGrammar.ts',
    18,
    18,
    'performance',
    'the whole-chunk pre-check only saves the exact scan, which finds the same control characters',
  ],
  [
    'src/domain/trace/traceParser.ts',
    70,
    71,
    'equivalent',
    'initial values, set again whenever a CSI sequence starts',
  ],
  [
    'src/domain/trace/traceParser.ts',
    137,
    137,
    'equivalent',
    'charCodeAt(-1) of an empty text is NaN, never a high surrogate',
  ],
  [
    'src/domain/trace/traceParser.ts',
    168,
    185,
    'performance',
    'where the next LF, CR, ESC or control character is gets searched again earlier or more often; the same positions come back',
  ],
  [
    'src/domain/trace/traceParser.ts',
    194,
    194,
    'equivalent',
    'the open line already ends with the character before the CR, so reading it from the line gives the same code',
  ],
  [
    'src/domain/trace/traceParser.ts',
    220,
    222,
    'equivalent',
    'ESC \\ read as a new two-character sequence is dropped just as the OSC end is',
  ],
  [
    'src/domain/trace/traceParser.ts',
    288,
    317,
    'performance',
    'the one-pass reading of a whole CSI sequence and its cache key; a mutant falls back to the step-by-step states or the uncached SGR, which give the same text and styles (the split-at-every-position tables check that)',
  ],
  [
    'src/domain/trace/traceParser.ts',
    389,
    391,
    'equivalent',
    'appending no parameters, or parameters of a sequence already known not to be SGR, changes nothing read later',
  ],
  [
    'src/domain/trace/traceParser.ts',
    398,
    398,
    'equivalent',
    'charCodeAt past the end is NaN, which ends the loop the same way',
  ],
  [
    'src/domain/trace/traceParser.ts',
    426,
    439,
    'performance',
    'the per-style transition cache: skipping or overfilling it recomputes the same style',
  ],
  [
    'src/domain/trace/traceGrammar.ts',
    170,
    170,
    'performance',
    'the whole-chunk pre-check only saves the exact scan',
  ],
  // src/domain/trace/traceText.ts
  [
    'src/domain/trace/traceText.ts',
    11,
    12,
    'performance',
    'flatCopy: which copy is made changes memory only; the text is the same',
  ],
  ['src/domain/trace/traceText.ts', 32, 32, 'equivalent', 'charCodeAt past the end is NaN, not ESC'],
  [
    'src/domain/trace/traceText.ts',
    49,
    49,
    'equivalent',
    'charCodeAt past the end is NaN; the loop ends the same way',
  ],
  [
    'src/domain/trace/traceText.ts',
    52,
    52,
    'equivalent',
    '0x7e is taken as a final byte on the line above before this test sees it',
  ],
  [
    'src/domain/trace/traceText.ts',
    58,
    58,
    'equivalent',
    'charCodeAt past the end is NaN; the loop ends the same way',
  ],
  [
    'src/domain/trace/traceText.ts',
    61,
    61,
    'equivalent',
    'an OSC end left in place is read next as ESC \\, a two-character sequence, and dropped all the same',
  ],
  ['src/domain/trace/traceText.ts', 107, 107, 'equivalent', 'the line past the end is undefined and skipped'],
  [
    'src/domain/trace/traceText.ts',
    115,
    115,
    'performance',
    'rank 0 cannot be beaten: scanning on finds nothing better',
  ],
  // src/domain/trace/traceTail.ts
  [
    'src/domain/trace/traceTail.ts',
    13,
    17,
    'equivalent',
    'the indentation cache: an empty start or a missing entry gives the same indentation',
  ],
  [
    'src/domain/trace/traceTail.ts',
    21,
    21,
    'performance',
    'retaining lines or styles in the tail parser costs memory, the plain text is the same',
  ],
  [
    'src/domain/trace/traceTail.ts',
    70,
    70,
    'equivalent',
    'the one-span shortcut gives the text plainText gives',
  ],
  // src/domain/trace/traceRows.ts
  [
    'src/domain/trace/traceRows.ts',
    102,
    102,
    'equivalent',
    'the line store gives a section only on its header line',
  ],
  [
    'src/domain/trace/traceRows.ts',
    122,
    122,
    'equivalent',
    'a timestamped trace gives every later line a time (a line without a prefix keeps the one before), so no gap longer than 64 lines exists',
  ],
  [
    'src/domain/trace/traceRows.ts',
    157,
    157,
    'performance',
    'rebuilding the rows when nothing changed gives the same rows',
  ],
  [
    'src/domain/trace/traceRows.ts',
    163,
    163,
    'equivalent',
    'the store lower-cases the query and finds nothing for an empty one',
  ],
  [
    'src/domain/trace/traceRows.ts',
    219,
    229,
    'performance',
    'how the row index grows and how far it is reused; the rows are the same (checked against a whole parse for chunks of every size)',
  ],
  // src/domain/trace/traceLineStore.ts
  ['src/domain/trace/traceLineStore.ts', 17, 25, 'performance', 'block size and array growth: memory only'],
  [
    'src/domain/trace/traceLineStore.ts',
    96,
    110,
    'equivalent',
    'out-of-range reads of the typed arrays give undefined or 0, which end as the same empty answer',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    140,
    146,
    'equivalent',
    'an empty last line ranks as nothing; rank 0 cannot be beaten',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    160,
    160,
    'equivalent',
    'the parser never makes an empty span, so no run has length 0',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    172,
    172,
    'performance',
    'always searching line by line finds the same lines',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    188,
    226,
    'equivalent',
    'character positions are relative to the block, whose first line starts at 0, so adding or subtracting that 0 is the same; scanning a block per line finds the same lines',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    239,
    242,
    'equivalent',
    'only the open last line is ever taken back, so at most the last block goes',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    257,
    257,
    'equivalent',
    'concatenating a single span gives that span',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    266,
    266,
    'equivalent',
    "the parser gives a line its section only when the line is that section's header",
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    280,
    283,
    'performance',
    "where a line's bytes go (the reserved separator byte, a block per empty line): memory only",
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    293,
    293,
    'equivalent',
    'only differences of character positions within one block are used',
  ],
  [
    'src/domain/trace/traceLineStore.ts',
    307,
    307,
    'equivalent',
    'runs come in pairs, so the loop takes the same lengths with < or <=',
  ],
  ['src/domain/trace/traceLineStore.ts', 313, 313, 'performance', 'a new style id per span: memory only'],
  // src/state/traceFollower.ts
  [
    'src/state/traceFollower.ts',
    144,
    144,
    'equivalent',
    'exactly 256 new bytes: both branches keep those 256 bytes',
  ],
  [
    'src/state/traceFollower.ts',
    155,
    155,
    'equivalent',
    'reads outside a Uint8Array give undefined, which never equals a byte, so the bounds test only saves the loop',
  ],
  ['src/state/traceFollower.ts', 181, 181, 'equivalent', 'set again at the start of every read'],
  [
    'src/state/traceFollower.ts',
    225,
    258,
    'equivalent',
    'guards doubled elsewhere: schedule() and poll() both return once stopped, and clearTimeout of no timer does nothing',
  ],
  [
    'src/state/traceFollower.ts',
    290,
    290,
    'equivalent',
    'schedule() returns at once after a fatal error stopped the follower',
  ],
  [
    'src/state/traceFollower.ts',
    320,
    320,
    'equivalent',
    'holdsAt refuses a shorter body anyway (reads past its end are undefined)',
  ],
  [
    'src/state/traceFollower.ts',
    135,
    135,
    'equivalent',
    'one more decode of nothing gives an empty text, which is not handed on',
  ],
  // src/api/channel/download.ts
  [
    'src/api/channel/download.ts',
    66,
    66,
    'equivalent',
    'an unreadable resume file is treated as none either way',
  ],
  [
    'src/api/channel/download.ts',
    80,
    86,
    'equivalent',
    'a resume file at 0 bytes resumes from 0, the same as starting over',
  ],
  // src/domain/jobStatus.ts: none expected
  // src/api/http
  [
    'src/api/http/certificates.ts',
    169,
    174,
    'equivalent',
    'describeCertificate: the host carries one port, stripped alike by either pattern',
  ],
  [
    'src/api/http/download.ts',
    65,
    65,
    'equivalent',
    'a ForgeError passed through or wrapped ends as the same error class for the caller',
  ],
  [
    'src/api/http/errors.ts',
    311,
    311,
    'equivalent',
    'a RangeError from JSON.parse: V8 parses any nesting without one (the guard is for other engines)',
  ],
  [
    'src/api/http/errors.ts',
    365,
    366,
    'equivalent',
    'non-object values in field errors are skipped either way',
  ],
  ['src/api/http/errors.ts', 381, 381, 'equivalent', 'split always returns at least one element'],
  [
    'src/text/linearText.ts',
    11,
    18,
    'equivalent',
    'indexing past either end gives undefined, which is no trim character',
  ],
  [
    'src/text/linearText.ts',
    38,
    43,
    'equivalent',
    'searching again from one character earlier, or accepting a close at 0, finds the same tag',
  ],
  ['src/api/http/linkHeader.ts', 10, 10, 'equivalent', 'charCodeAt past the end is NaN'],
  [
    'src/api/http/pagination.ts',
    94,
    96,
    'equivalent',
    'a reply with no data is read as an empty list either way',
  ],
  ['src/api/http/pagination.ts', 162, 162, 'performance', 'the page-count hint cache bound: memory only'],
  [
    'src/api/http/proxy.ts',
    22,
    25,
    'equivalent',
    'an empty rule never matches a host; hostnames carry brackets only at their ends',
  ],
  [
    'src/api/http/proxy.ts',
    43,
    43,
    'equivalent',
    'empty NO_PROXY entries are ignored, so splitting on single or repeated separators is the same',
  ],
  [
    'src/api/http/redact.ts',
    21,
    23,
    'killed since',
    '`redactSpellings.test.ts` fails with it put in by hand; the run misses it because the module-level pattern cache outlives a mutant in the in-process runner',
  ],
  [
    'src/api/http/redact.ts',
    31,
    42,
    'killed since',
    '`redactSpellings.test.ts` (a tab, a line feed, every spelling) fails with it put in by hand; the run misses it because the module-level pattern cache outlives a mutant in the in-process runner',
  ],
  ['src/api/http/redact.ts', 56, 69, 'performance', 'the pattern cache: memory only'],
  ['src/api/http/requestRules.ts', 36, 36, 'equivalent', 'the part before ? or # of a path is never absent'],
  [
    'src/api/http/requestRules.ts',
    77,
    84,
    'equivalent',
    'removing the abort listener, and once: only cleanup of a listener that fires at most once',
  ],
  [
    'src/api/http/requestRules.ts',
    89,
    92,
    'equivalent',
    'untrimmed blank or padded Retry-After values read the same (Date.parse and Number ignore the spaces)',
  ],
  ['src/api/http/transport.ts', 373, 373, 'performance', 'log wording'],
  [
    'src/api/http/transport.ts',
    285,
    286,
    'equivalent',
    'releasing and draining the body of a redirect before it is followed or refused: resources only',
  ],
  ['src/api/http/transport.ts', 325, 325, 'equivalent', 'a failed error body is read as no message'],
  ['src/api/http/transport.ts', 410, 416, 'equivalent', 'redacting field errors that are already redacted'],
  [
    'src/api/http/validate.ts',
    12,
    13,
    'equivalent',
    'fallback texts for zod issues without a path, which the schemas never produce',
  ],
  // Classified 2026-11-27 (third session), after the incremental run of the split code. The old
  // run had counted some of these as killed by a failing "after all" hook, which kills nothing.
  [
    'src/domain/trace/traceBytes.ts',
    13,
    13,
    'performance',
    'one-byte blocks keep the same bytes in more arrays',
  ],
  [
    'src/domain/trace/traceBytes.ts',
    67,
    67,
    'performance',
    'counting lengths past the size reads more parts; what is taken is capped at the size',
  ],
  [
    'src/domain/trace/traceBytes.ts',
    30,
    30,
    'killed since',
    '`traceBytes.test.ts`: a piece that fills the last block and starts a new one keeps only its own bytes',
  ],
  [
    'src/api/http/failureKinds.ts',
    29,
    29,
    'equivalent',
    'the caller retries only reads (it checks the method too), and this is a write',
    94,
  ],
  [
    'src/api/http/transport.ts',
    204,
    204,
    'killed since',
    '`transportTables.test.ts`: a stream without Content-Length has no length',
  ],
  [
    'src/api/http/transport.ts',
    283,
    283,
    'killed since',
    '`transportTables.test.ts`: a redirect of a HEAD request is followed',
  ],
  [
    'src/api/http/transport.ts',
    294,
    295,
    'killed since',
    '`transportTables.test.ts`: a redirected change is a write, with or without a Location, and names no made-up target',
  ],
  [
    'src/api/http/transport.ts',
    336,
    336,
    'killed since',
    '`transportTables.test.ts`: a HEAD request is retried after a 503, as a read',
  ],
  [
    'src/api/http/transport.ts',
    351,
    351,
    'killed since',
    '`transportTables.test.ts`: a HEAD request is retried after a reset connection, as a read',
  ],
  [
    'src/api/http/runawayGuard.ts',
    8,
    8,
    'killed since',
    '`runawayLists.test.ts`: pages whose rows have ids only in part are told by the rows',
  ],
  [
    'src/api/channel/download.ts',
    188,
    188,
    'equivalent',
    'bytes are counted only after the resume state was read, so a download that broke off after some bytes knows its size',
  ],
  [
    'src/api/http/pagination.ts',
    171,
    172,
    'performance',
    'without sorting, the same parameters in another order look like other links: the early pages are dropped and read again through the window',
  ],
  [
    'src/api/http/pagination.ts',
    225,
    225,
    'killed since',
    '`pagination.test.ts`: a list of one page, with or without totals',
  ],
  [
    'src/api/http/pagination.ts',
    229,
    229,
    'killed since',
    '`pagination.test.ts`: a list read again whose next links carry a cursor the first request lacks',
  ],
  [
    'src/api/http/pagination.ts',
    255,
    255,
    'performance',
    'the read-ahead window shrinks instead of growing: the same pages, fewer at once',
  ],
  [
    'src/api/http/pagination.ts',
    258,
    258,
    'performance',
    'the page count is remembered also for lists that stopped early: only how many pages the next read starts with',
  ],
];

const [, , reportPath] = process.argv;
if (!reportPath) {
  console.error('usage: node scripts/mutation-survivors.mjs <stryker report.json>');
  process.exit(2);
}
/** @type {unknown} */
const parsed = JSON.parse(readFileSync(reportPath, 'utf8'));
const report = /** @type {{ files: Record<string, { mutants: Mutant[] }> }} */ (parsed);
/**
 * @param {string} file
 * @param {number} line
 * @param {number} column
 * @returns {[string, number, number, Kind, string, number?]}
 */
const classOf = (file, line, column) =>
  RULES.find(
    ([ruleFile, from, to, , , ruleColumn]) =>
      ruleFile === file && line >= from && line <= to && (ruleColumn === undefined || ruleColumn === column),
  ) ?? [file, line, line, 'open', 'not looked at yet'];

const out = [
  '# Surviving mutants of the mutation goal',
  '',
  'Generated by `node scripts/mutation-survivors.mjs reports/mutation/mutation.json` from the last',
  'run over the goal parts (see docs/testing.md). Classes: **equivalent** (no test can tell the',
  'mutant from the code), **performance** (only speed or memory change; the benchmarks guard those),',
  '**killed since** (a test fails with the mutant put in by hand: a test added after the run, or one',
  'the run could not see, said in the reason),',
  '**open** (a behaviour still without a test; the reason says which test would kill it).',
  '',
];
/** @type {Record<Kind, number>} */
const counts = { equivalent: 0, performance: 0, 'killed since': 0, open: 0 };
for (const [file, data] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  if (!GOAL.test(file)) continue;
  const survivors = data.mutants
    .filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage')
    .sort((a, b) => a.location.start.line - b.location.start.line);
  if (survivors.length === 0) continue;
  out.push(
    `## \`${file}\` (${survivors.length})`,
    '',
    '| Line | Mutant | Class | Why |',
    '| ---- | ------ | ----- | --- |',
  );
  for (const mutant of survivors) {
    const line = mutant.location.start.line;
    const [, , , kind, reason] = classOf(file, line, mutant.location.start.column);
    counts[kind]++;
    const replacement = String(mutant.replacement ?? '')
      .replace(/\s+/g, ' ')
      .replace(/\|/g, '\\|')
      .slice(0, 60);
    out.push(
      `| ${line} | ${mutant.mutatorName} \`${replacement.replace(/`/g, "'")}\` | ${kind} | ${reason} |`,
    );
  }
  out.push('');
}
out.splice(
  9,
  0,
  `Totals: ${counts.equivalent} equivalent, ${counts.performance} performance, ` +
    `${counts['killed since']} killed since the run, ${counts.open} open.`,
  '',
);
process.stdout.write(`${out.join('\n')}\n`);
