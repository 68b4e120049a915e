/*
 * Finds the strings of the extension's code that a user reads but that do not go through `l10n.t`
 * (VS Code's `vscode.l10n.t`, or `@vscode/l10n`'s `t` in the layers that do not import `vscode`).
 * A string is taken as read by a user when it is prose (words with spaces between them), or when it
 * is given to one of the doors that show text (a message, a quick pick, an input box, a tree row).
 * What the user never reads is left alone: log lines, comparisons, keys, ids, types.
 */
import ts from 'typescript';

/** The functions that show what they are given, and the fields of their options a user reads. */
const DOOR_CALLS = new Set([
  'showInformation',
  'showWarning',
  'showError',
  'showStatusMessage',
  'askText',
  'pickOne',
  'pickMany',
  'withProgress',
  'withNotificationProgress',
  'withCancellableProgress',
  'TreeItem',
  'MarkdownString',
  // The row a command expects, named in its refusal.
  'rowOf',
]);
const SHOWN_FIELDS = new Set([
  'title',
  'placeHolder',
  'prompt',
  'label',
  'description',
  'detail',
  'tooltip',
  'message',
  'validationMessage',
  'accessibilityInformation',
  'saveLabel',
  'openLabel',
  'text',
  'placeholder',
  'ariaLabel',
]);
/**
 * Prose that is not for people to read: text other programs read (headers, PEM, git's formats) or
 * that a server keeps as it is written (the merge commit message GitLab itself writes in English).
 */
export const NOT_FOR_USERS: readonly (readonly [file: string, text: RegExp])[] = [
  ['src/api/http/credentialHeaders.ts', /^(Bearer|Basic) \{\}$/],
  ['src/api/http/transport.ts', /^application\/json, /],
  ['src/platform/log.ts', /^Forge Workbench$/],
  ['src/domain/systemNoteHtml.ts', /^<a href="\{\}">$/],
  ['src/webviews/shared/app/markdown.ts', /^<a href="\{\}">🖼 \{\}<\/a>$/],
  ['src/webviews/shared/webviewHtml.ts', /^(<!DOCTYPE html>|[a-z]+-src |requestAnimationFrame\()/],
  ['src/features/mergeRequests/panel/firstPaint.ts', /^\{\}\n\.fp-branch \{/],
  ['src/webviews/shared/firstPaintStyle.ts', /^\nbody \{ margin: 0;/],
  ['src/features/jobs/panel/firstPaint.ts', /^(\nbody \{ margin: 0;|\.fp-)/],
  ['src/features/pipelines/panel/firstPaint.ts', /^(\nbody \{ margin: 0;|\.fp-|#\{\} \{ left: )/],
  ['src/api/http/certificates.ts', /^-----BEGIN CERTIFICATE-----/],
  ['src/domain/mergeRequestStatus.ts', /^Merge branch '\{\}' into '\{\}'$|See merge request \{\}!\{\}$/],
  // Pieces of GitLab's CI lint sentences, found in what the server answers.
  [
    'src/domain/ciLintPlaces.ts',
    /^( config contains unknown key| config should| is not defined| job: chosen stage | job: need | job: undefined dependency: |' job needs '|' job|: unknown keys in `extends` \(|does not exist)$/,
  ],
  // `KeyboardEvent.key` values the trace page listens for.
  ['src/features/jobs/panel/app/traceView.ts', /^(Home|End)$/],
  [
    'src/domain/mergeRequestView.ts',
    /^(diff --git a\/\{\} b\/\{\}|(new file|deleted file|old|new) mode \{\}|rename (from|to) \{\})$/,
  ],
];

function isShownField(name: string): boolean {
  return (
    SHOWN_FIELDS.has(name) || /[a-z](Label|Title|Message|Text|Description|Tooltip|Placeholder)$/.test(name)
  );
}

/** Fields VS Code or the page reads as a key, never shows: a translated one would break menus and styles. */
const MACHINE_FIELDS = new Set([
  'contextValue',
  'id',
  'command',
  'viewType',
  'className',
  'kind',
  'type',
  'scheme',
]);

/** Calls whose text is for us (the log) or for the machine. */
const NOT_SHOWN_CALL =
  /(^|\.)(log|logger|messageLog|console|output)\??\.\w+$|(^|\.)(log|debug|trace|ask)$|^(require|RegExp|Symbol)$/;

export interface UserString {
  line: number;
  column: number;
  text: string;
  /** The literal's node, for the rewriting script. */
  node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression;
}

/** The text a literal shows, with `{}` where a template puts a value. */
export function staticText(node: UserString['node']): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
}

/** A list of CSS classes (`diff-row added`, `state-badge state-{}`): lower-case words, one with a hyphen. */
function isClassList(text: string): boolean {
  const words = text.split(' ');
  return (
    words.some((word) => word.includes('-')) &&
    words.every((word) => /^([a-z][a-z0-9-]*)?(\{\})?$/.test(word))
  );
}

/** A word or words of English as a label starts (`Jobs`, `Empty folder`), not a name (`ForgeError`, `Content-Type`). */
function isCapitalizedWord(text: string): boolean {
  return /^[A-Z][a-z]+\b/.test(text) && !/^[A-Z][a-z]+([A-Z]|-[A-Z])/.test(text);
}

function isProse(text: string): boolean {
  if (isClassList(text)) return false;
  if (isCapitalizedWord(text)) return true;
  return /[A-Za-z]{2,}/.test(text) &&
    /[A-Za-z)}'"…:;,.!?][ ]+[A-Za-z({'"]/.test(text) &&
    !/^[\w.-]+ [\w.-]+$/.test(text)
    ? !/^(GET|POST|PUT|DELETE|HEAD|PATCH) /.test(text)
    : false;
}

function calleeName(call: ts.CallExpression | ts.NewExpression, file: ts.SourceFile): string {
  return call.expression.getText(file);
}

export function isL10nCall(node: ts.Node, file: ts.SourceFile): node is ts.CallExpression {
  return ts.isCallExpression(node) && /(^|\.)l10n\.t$/.test(calleeName(node, file));
}

/** Walks up through the expressions that pass a value on unchanged (`a ? b : c`, `(x)`, `x ?? y`, arrays). */
function consumer(node: ts.Node): { node: ts.Node; child: ts.Node } {
  let child = node;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isConditionalExpression(parent) ||
    ts.isTemplateSpan(parent) ||
    ts.isTemplateExpression(parent) ||
    ts.isArrayLiteralExpression(parent) ||
    (ts.isBinaryExpression(parent) &&
      (parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
        parent.operatorToken.kind === ts.SyntaxKind.BarBarToken ||
        parent.operatorToken.kind === ts.SyntaxKind.PlusToken))
  ) {
    if (ts.isConditionalExpression(parent) && parent.condition === child) break;
    child = parent;
    parent = parent.parent;
  }
  return { node: parent, child };
}

export function isNeverShown(node: ts.Node, file: ts.SourceFile): boolean {
  const { node: parent, child } = consumer(node);
  if (
    ts.isImportDeclaration(parent) ||
    ts.isExportDeclaration(parent) ||
    ts.isExternalModuleReference(parent) ||
    ts.isLiteralTypeNode(parent) ||
    ts.isCaseClause(parent) ||
    (ts.isAsExpression(parent) && parent.type.getText(file) === 'const') ||
    ts.isElementAccessExpression(parent) ||
    (ts.isPropertyAssignment(parent) && parent.name === child) ||
    (ts.isPropertyAssignment(parent) && MACHINE_FIELDS.has(parent.name.getText(file))) ||
    (ts.isBinaryExpression(parent) &&
      parent.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(parent.left) &&
      MACHINE_FIELDS.has(parent.left.name.text)) ||
    (ts.isBinaryExpression(parent) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
        ts.SyntaxKind.InKeyword,
      ].includes(parent.operatorToken.kind))
  )
    return true;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== child)
    return NOT_SHOWN_CALL.test(calleeName(parent, file));
  return false;
}

function isAtDoor(node: ts.Node, file: ts.SourceFile): boolean {
  const { node: parent, child } = consumer(node);
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== child) {
    const name = calleeName(parent, file).split('.').pop() ?? '';
    return DOOR_CALLS.has(name);
  }
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === child)
    return isShownField(parent.name.getText(file));
  if (
    ts.isBinaryExpression(parent) &&
    parent.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    parent.right === child &&
    ts.isPropertyAccessExpression(parent.left)
  )
    return isShownField(parent.left.name.text);
  return false;
}

/** Whether a template puts translated words or words of its own into its places: a sentence glued from pieces. */
function gluesWords(node: ts.TemplateExpression, file: ts.SourceFile): boolean {
  const isWords = (expression: ts.Expression): boolean => {
    if (ts.isParenthesizedExpression(expression)) return isWords(expression.expression);
    if (ts.isConditionalExpression(expression))
      return isWords(expression.whenTrue) || isWords(expression.whenFalse);
    if (
      ts.isBinaryExpression(expression) &&
      expression.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken
    )
      return isWords(expression.right);
    if (isL10nCall(expression, file)) return true;
    return (
      (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) &&
      /[A-Za-z]{2}/.test(expression.text)
    );
  };
  return node.templateSpans.some((span) => isWords(span.expression));
}

/** Every string of `source` a user would read that is not translated. */
/** Markup whose words are all tag and attribute names: the text in it comes from its values. */
function isMarkupOnly(text: string): boolean {
  return /^\s*</.test(text) && !/[A-Za-z]/.test(text.replace(/<[^>]*>/g, ''));
}

export function untranslatedStrings(fileName: string, source: string): UserString[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: UserString[] = [];
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node, file)) {
      // The message is translated; the values put into it may be text of ours too.
      node.arguments.slice(1).forEach(visit);
      return;
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node)
    ) {
      const text = staticText(node);
      if (
        /[A-Za-z]/.test(text) &&
        !isNeverShown(node, file) &&
        (isProse(text) || isAtDoor(node, file)) &&
        !/^\$\([\w-]+\)$/.test(text) &&
        !/^https?:\/\//.test(text) &&
        !isMarkupOnly(text) &&
        !NOT_FOR_USERS.some(([suffix, pattern]) => fileName.endsWith(suffix) && pattern.test(text))
      ) {
        const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push({ line: line + 1, column: character + 1, text, node });
      } else if (
        ts.isTemplateExpression(node) &&
        gluesWords(node, file) &&
        !isNeverShown(node, file) &&
        !isMarkupOnly(text)
      ) {
        const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push({ line: line + 1, column: character + 1, text: `glued: ${text}`, node });
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
