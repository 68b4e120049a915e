// What the CI file's schema check says for each kind of error Ajv reports, and where: driven by a
// stand-in validator that reports exactly the errors given (the real schema rarely gives some).
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { checkCiSchema, type CiSchemaValidator } from '../../../src/domain/ciSchemaCheck';

/** A validator that refuses everything with `errors`. */
function refusing(errors: Partial<ErrorObject>[]): CiSchemaValidator {
  const validate = (() => false) as unknown as CiSchemaValidator;
  validate.errors = errors.map((error) => ({
    instancePath: '',
    schemaPath: '#',
    keyword: 'type',
    params: {},
    ...error,
  })) as ErrorObject[];
  return validate;
}

const FILE = ['build:', '  script:', '    - make', '    - make test', '  tags: [a, a]', 'stages: []'].join(
  '\n',
);

function said(errors: Partial<ErrorObject>[]): string[] {
  return checkCiSchema(refusing(errors), FILE).map(
    ({ range, message }) => `${range.startLine + 1}:${range.startCharacter} ${message}`,
  );
}

describe('CI schema check messages and places', () => {
  it('says each keyword in words', () => {
    const cases: [Partial<ErrorObject>, string][] = [
      [
        { keyword: 'additionalProperties', params: { additionalProperty: 'scirpt' } },
        '"scirpt" is not a keyword here.',
      ],
      [{ keyword: 'type', params: { type: 'string | array' } }, 'Should be string or array.'],
      [
        { keyword: 'enum', params: { allowedValues: ['always', 'never'] } },
        'Should be one of: always, never.',
      ],
      [{ keyword: 'enum', params: {} }, 'Should be one of: .'],
      [{ keyword: 'required', params: { missingProperty: 'script' } }, '"script" is missing here.'],
      [{ keyword: 'minimum', params: { comparison: '>=', limit: 1 } }, 'Should be >= 1.'],
      [{ keyword: 'maximum', params: { comparison: '<=', limit: 9 } }, 'Should be <= 9.'],
      [{ keyword: 'exclusiveMinimum', params: { comparison: '>', limit: 0 } }, 'Should be > 0.'],
      [{ keyword: 'exclusiveMaximum', params: { comparison: '<', limit: 5 } }, 'Should be < 5.'],
      [{ keyword: 'minItems', params: { limit: 1 } }, 'Should have at least 1 items.'],
      [{ keyword: 'minLength', params: { limit: 1 } }, 'Should not be empty.'],
      [{ keyword: 'uniqueItems', params: { i: 1, j: 0 } }, 'Items should not repeat.'],
      [
        { keyword: 'pattern', message: 'must match pattern "^x"' },
        'Does not match GitLab\'s CI schema: must match pattern "^x".',
      ],
      [{ keyword: 'format', message: undefined }, "Does not match GitLab's CI schema: format."],
    ];
    for (const [error, message] of cases) {
      const lines = said([{ instancePath: '/build', ...error }]);
      assert.equal(lines.length, 1, JSON.stringify(error));
      assert.match(lines[0] ?? '', /^1:/, 'on the job');
      assert.equal(lines[0]?.replace(/^\d+:\d+ /, ''), message, JSON.stringify(error));
    }
  });

  it('puts an error on the list item it names, and on its list when there is no such item', () => {
    assert.deepEqual(said([{ instancePath: '/build/script/1', keyword: 'minLength' }]), [
      '4:6 Should not be empty.',
    ]);
    assert.deepEqual(said([{ instancePath: '/build/tags/1', keyword: 'uniqueItems' }]), [
      '5:12 Items should not repeat.',
    ]);
    const beyond = said([{ instancePath: '/build/script/7', keyword: 'minLength' }]);
    assert.equal(beyond.length, 1);
    assert.match(beyond[0] ?? '', /^[23]:/, 'on the list or its key');
  });

  it('keeps the first summary error when nothing more specific came, and says nothing for a file that does not parse', () => {
    assert.deepEqual(
      said([
        { instancePath: '/stages', keyword: 'oneOf', message: 'must match exactly one schema in oneOf' },
        { instancePath: '/build', keyword: 'anyOf', message: 'must match a schema in anyOf' },
      ]).map((line) => line.replace(/^\d+:\d+ /, '')),
      ["Does not match GitLab's CI schema: must match exactly one schema in oneOf."],
    );
    assert.deepEqual(checkCiSchema(refusing([{ keyword: 'type' }]), 'a: [unclosed'), []);
    assert.deepEqual(checkCiSchema(refusing([{ keyword: 'type' }]), undefined), []);
  });
});
