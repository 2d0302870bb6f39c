import type { Rule } from 'eslint';

/**
 * `local/doc-attached`: a doc comment (`/** ... *\/`) sits on the line right above what it
 * documents. Two doc comments in a row, or one followed by a blank line, mean an entry lost its doc
 * (or a doc lost its entry) when lines were moved: editors then show the wrong text for a name, or
 * none. Among statements a doc comment followed by a blank line is the doc of the module or of a
 * section below it, so the blank line is checked only inside a list of members (an object, a class,
 * an interface, a type literal, an enum), where every doc is some member's.
 */
const MEMBER_LISTS = new Set([
  'ObjectExpression',
  'ClassBody',
  'TSInterfaceBody',
  'TSTypeLiteral',
  'TSEnumDeclaration',
  'TSEnumBody',
]);

export const docAttachedRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'A doc comment is followed directly by the code it documents.' },
    schema: [],
    messages: {
      docAfterDoc:
        'This doc comment is followed by another one: it documents nothing. Put it right above its entry.',
      blankLine:
        'A blank line parts this doc comment from the code below it: put it right above its entry.',
      nothing: 'This doc comment documents nothing: no member follows it.',
    },
  },
  create(context) {
    const source = context.sourceCode;
    return {
      Program(program) {
        for (const comment of source.getAllComments()) {
          if (
            comment.type !== 'Block' ||
            !comment.value.startsWith('*') ||
            comment.value.startsWith('**')
          )
            continue;
          const next = source.getTokenAfter(comment, { includeComments: true });
          const inMembers = MEMBER_LISTS.has(
            source.getNodeByRangeIndex(comment.range![0])?.type ?? program.type,
          );
          if (next === null || (inMembers && next.value === '}')) {
            if (inMembers) context.report({ loc: comment.loc!, messageId: 'nothing' });
          } else if (next.loc!.start.line > comment.loc!.end.line + 1) {
            if (inMembers) context.report({ loc: comment.loc!, messageId: 'blankLine' });
          } else if (next.type === 'Block' && next.value.startsWith('*')) {
            context.report({ loc: comment.loc!, messageId: 'docAfterDoc' });
          }
        }
      },
    };
  },
};
