/** Which typed messages ask for a change, and the words a change made is recorded in. */
import { describe, expect, it } from 'vitest';
import { askedChange } from '../../../src/memory/state/asked.js';

describe('askedChange', () => {
  it('reads the request from its verb on, in the words it was typed in', () => {
    expect(askedChange('Move the size legend above the chart instead of on top of it.')).toBe('Move the size legend above the chart instead of on top of it.');
    expect(askedChange('please fix the login bug on safari')).toBe('Fix the login bug on safari');
    expect(askedChange('Also add a prominent toggle to adjust for inflation. Explain how it works.')).toBe('Add a prominent toggle to adjust for inflation.');
    expect(askedChange("ok, let's add retry to the S3 upload")).toBe('Add retry to the S3 upload');
    expect(askedChange('Make the grid closer to a square aspect ratio.')).toBe('Make the grid closer to a square aspect ratio.');
    expect(askedChange('Take the header out of the print layout.')).toBe('Take the header out of the print layout.');
    expect(askedChange('Lets set the home page to the event viewer')).toBe('Set the home page to the event viewer');
    expect(askedChange('ADD A README THAT EXPLAINS THE SETUP')).toBe('ADD A README THAT EXPLAINS THE SETUP');
    expect(askedChange('Fix the login bug\nthen the signup form\nand the footer\nplease')).toBe('Fix the login bug');
    expect(askedChange('Implement room name generation using the fast model.')).toBe('Implement room name generation using the fast model.');
  });

  it('reads a wish the person has of the agent as the change it asks for', () => {
    expect(askedChange("And then I'd like you to implement room name generation using the fast model.")).toBe(
      'Implement room name generation using the fast model.',
    );
    expect(askedChange('I want to add a Fast Model and a Smart Model to the settings.')).toBe('Add a Fast Model and a Smart Model to the settings.');
    expect(askedChange('Id like you to add a dark mode toggle')).toBe('Add a dark mode toggle');
    expect(askedChange('We need to add retries to the uploader')).toBe('Add retries to the uploader');
    for (const text of [
      "I don't want you to add a cache here",
      'I want to understand the retry loop',
      "I'd like to keep the old layout",
      'I would love a dark mode',
    ])
      expect(askedChange(text), text).toBeUndefined();
  });

  it('finds no change in a go-ahead, a question, a report, a look, a repeat or a rule', () => {
    for (const text of [
      'continue',
      'yes do it',
      'why is this failing?',
      'I think the cache is stale',
      'explain the retry loop in the uploader',
      'read all the readmes in the project',
      'run the migration again, I reset my db',
      'always run the linter before a commit',
      'Prefer ruby, but use another language if it fits better.',
      'Note: the tags endpoint returns 404 until the backend ships it',
      'Create these files:',
      'fix it',
      'Phase 2 - ask me before you deploy anything',
      'Webhook registered but the retries still never fire on a 500',
      'Sync_orders handles it correctly actually.',
      "Let's get started with the fixes.",
      'Make sure that phase 4 is completed',
      'Finish all the remaining migration tasks, then we review them',
      'export a transcript of this chat',
      "Don't use anything that needs Node 22.",
      'Commit everything that was touched in this pass',
      'push the release branch to origin',
      'restart the dev server with the new env',
      'never add a dependency for three slices of state',
      'Take a look at docs and code',
      'implement the plan',
      "let's implement phase 2",
      'do the next step',
      'Remember to use the MCP for all commands',
      'Remove that and commit and push ASAP, then lets talk about the collector.',
      'Take a beat to look for any prior art in CLI task managers',
      // A screen pasted under a report of trouble: its button label is no request.
      'also the vault initialization failed\n  Treasury Operations\n\n  Solana Vault\n  Current Balance\n  0.00 USDC\n  Initialize Vaultand in the payroll tab Console Error',
      // Names in code the tagger may read as a command.
      '3. Events: PropertyInitialized, SharesPurchased, YieldDistributed',
      'take a quick look at the failing migration',
      'Feel free to take some notes on the design, i want to keep them for later',
      '```\nTypeError: x is undefined\n```',
      'it crashes on start:\nTraceback (most recent call last):\n  File "app/main.py", line 12, in run',
    ])
      expect(askedChange(text), text).toBeUndefined();
  });

  it('reads a request after its label, past a list of rules, with a query string in a path', () => {
    const message =
      'House rules, keep to them:\n- pnpm only\n- everything goes through the logger\n\nTask: add GET /api/orders/{id}/invoice?format=pdf that streams the invoice.';
    expect(askedChange(message)).toBe('Add GET /api/orders/{id}/invoice?format=pdf that streams the invoice.');
  });

  it('keeps the list a request leads into or goes on with', () => {
    expect(askedChange('Create these files:\n- src/invoice.ts\n- src/invoice.test.ts')).toBe('Create these files: src/invoice.ts; src/invoice.test.ts');
    expect(askedChange('Add the invoice export\n- as CSV\n- one row per line item')).toBe('Add the invoice export; as CSV; one row per line item');
    expect(askedChange('Things to do:\n- add the invoice export\n- rename the ledger module')).toBe('Add the invoice export; rename the ledger module');
  });

  it('gives the same words for the same request alone or at the head of a long message', () => {
    const alone = askedChange('Add a dark mode toggle to the settings page.');
    const long = askedChange(`Add a dark mode toggle to the settings page. ${'The rest of this message is a long account of why. '.repeat(30)}`);
    expect(alone).toBe('Add a dark mode toggle to the settings page.');
    expect(long).toBe(alone);
  });
});
