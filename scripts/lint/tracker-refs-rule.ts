/* eslint-disable local/no-tracker-refs -- this file names the references it catches */
import type { Rule } from 'eslint';
import type { Node as EstreeNode } from 'estree';

/**
 * `local/no-tracker-refs`: comments and test names say why in words, never by pointing at the
 * tracker. "issue 12" means nothing to a reader without the tracker, and nothing at all once the
 * tracker moves. Caught: "issue 12", "issue #12", "issues 11 and 12", "ticket 3", "PR #4",
 * "fixes #38", a lone "(#38)" or "#38:" and a parenthetical "(item 2)". Left alone: RFC sections
 * ("RFC 6749 §10.12"), a numbered item of a named outside list ("Electron security checklist #18",
 * "UAX #9", "§3.3.5 form #2"), status codes and other numbers.
 */
const PATTERNS: readonly RegExp[] = [
  // "issue 12", "Issue #12", "issues 11 and 12", "tickets 3", "PR #4", "pull request 7".
  /\b(?:issues?|tickets?|pull requests?|PRs?)\s+#?\d{1,5}\b/gi,
  // GitHub's closing keywords and "see #38".
  /\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|see|refs?)\s+#\d{1,5}\b/gi,
  // "#38" standing alone: at the start of the text or right after an opening bracket ("(#38)",
  // "[#38]", "#38: ...").
  /(?:^[\s*]*|[([]\s*)#\d{1,5}\b/gm,
  // "(item 2)", "(items 4 and 5)", "(see item 3)": the numbered items of a tracker entry.
  /\((?:[^()]*?[\s;,])?items?\s+\d{1,3}\b/gi,
];

/** Every tracker reference in `text`, as the words matched. */
export function trackerReferences(text: string): string[] {
  return PATTERNS.flatMap((p) => [...text.matchAll(p)].map((m) => m[0].trim()));
}

/** The functions whose first argument names a test or a group of tests (vitest, Playwright). */
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test', 'suite', 'bench']);

function calleeRoot(node: EstreeNode): string | null {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression') return calleeRoot(node.object);
  if (node.type === 'CallExpression') return calleeRoot(node.callee); // it.each([...])('name', ...)
  return null;
}

function testName(node: EstreeNode | undefined): string | null {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral')
    return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('${}');
  return null;
}

export const trackerRefsRule: Rule.RuleModule = {
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Comments and test names say why in words, not by a reference to the tracker.',
    },
    schema: [],
    messages: {
      comment:
        "'{{ref}}' points at the tracker: say in words why the code is so (the tracker is not part of the code).",
      testName:
        "'{{ref}}' in a test's name points at the tracker: name the behaviour the test holds the code to.",
    },
  },
  create(context) {
    const source = context.sourceCode;
    return {
      Program() {
        for (const comment of source.getAllComments()) {
          const [ref] = trackerReferences(comment.value);
          if (ref !== undefined)
            context.report({ loc: comment.loc!, messageId: 'comment', data: { ref } });
        }
      },
      CallExpression(node) {
        if (!TEST_FUNCTIONS.has(calleeRoot(node.callee as EstreeNode) ?? '')) return;
        const name = testName(node.arguments[0] as EstreeNode | undefined);
        const [ref] = name === null ? [] : trackerReferences(name);
        if (ref !== undefined)
          context.report({ node: node.arguments[0]!, messageId: 'testName', data: { ref } });
      },
    };
  },
};
