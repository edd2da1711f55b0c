import { describe, expect, it } from 'vitest';
import stripAnsi from 'strip-ansi';
import { looksLikePrompt } from '../../src/tasks/stall.js';

describe('prompt detection', () => {
  const prompts = [
    'Do you want to continue? [y/N] ',
    'Remove all files? [Y/n]',
    'Are you sure you want to proceed (yes/no)? ',
    'Password: ',
    '[sudo] password for alice: ',
    "Enter passphrase for key '/home/a/.ssh/id_ed25519': ",
    'Continue?',
    'Proceed? ',
    'Overwrite existing file config.json? ',
    'Are you sure',
    'Press any key to continue',
    'Press Enter to continue',
    'building...\ndone\nProject name: ',
    'What is your name? ',
    '\u001b[1m\u001b[32m?\u001b[0m Select a template \u001b[90m›\u001b[0m ? ',
  ];
  for (const p of prompts) {
    it(`sees a prompt in ${JSON.stringify(p)}`, () => expect(looksLikePrompt(p)).toBe(true));
  }

  const quiet = [
    'compiling 12 of 400 files\n',
    'All tests passed.\n',
    'Downloading 45%\n',
    'Listening on http://127.0.0.1:3000\n',
    'what is this?\n', // a question that ended with a newline is output, not a prompt
    '',
  ];
  for (const q of quiet) {
    it(`sees no prompt in ${JSON.stringify(q)}`, () => expect(looksLikePrompt(q)).toBe(false));
  }

  it('strips colours and cursor movement', () => {
    expect(stripAnsi('\u001b[31mred\u001b[0m \u001b[2K\u001b]0;title\u0007ok')).toBe('red ok');
  });

  it('looks at what a carriage return left visible', () => {
    expect(looksLikePrompt('progress 10%\rprogress 100%\rOverwrite? ')).toBe(true);
  });
});
