import { describe, expect, it } from 'vitest';
import { NOTES_TOOL, NotesStore } from '../../../src/agent/context/notes.js';

describe('notes', () => {
  it('the tool definition names its actions and sections', () => {
    expect(NOTES_TOOL.name).toBe('notes');
    expect(JSON.stringify(NOTES_TOOL.input_schema)).toContain('open_issues');
  });

  it('adds, updates, removes and reads', () => {
    const n = new NotesStore();
    expect(n.isEmpty).toBe(true);
    expect(n.handle({ action: 'add', section: 'decisions', text: 'use streaming — inputs reach 2 GB' })).toEqual({
      is_error: false,
      content: 'ok: decisions has 1 note(s)',
    });
    n.handle({ action: 'add', section: 'progress', text: 'step 1 done' });
    n.handle({ action: 'add', section: 'progress', text: 'step 2 started' });
    n.handle({ action: 'update', section: 'progress', index: 1, text: 'step 2 done' });
    n.handle({ action: 'remove', section: 'progress', index: 0 });
    expect(n.snapshot).toEqual({ progress: ['step 2 done'], decisions: ['use streaming — inputs reach 2 GB'], open_issues: [] });
    const read = n.handle({ action: 'read' });
    expect(read.content).toContain('### Progress\n0. step 2 done');
    expect(read.content).toContain('### Decisions');
  });

  it('bad input is an error result, not a throw', () => {
    const n = new NotesStore();
    expect(n.handle({ action: 'add', section: 'nope', text: 'x' }).is_error).toBe(true);
    expect(n.handle({ action: 'add', section: 'progress', text: '   ' }).is_error).toBe(true);
    expect(n.handle({ action: 'remove', section: 'progress', index: 3 }).content).toMatch(/no note 3/);
    expect(n.handle('garbage').is_error).toBe(true);
  });

  it('is bounded, so re-injection stays small', () => {
    const n = new NotesStore(undefined, 100);
    expect(n.handle({ action: 'add', section: 'progress', text: 'x'.repeat(90) }).is_error).toBe(false);
    expect(n.handle({ action: 'add', section: 'progress', text: 'y'.repeat(20) }).content).toMatch(/notes are full/);
  });
});
