/**
 * Control characters never enter the store: what is stored (memories, episodes) loses terminal
 * escape sequences (ANSI CSI/OSC, by strip-ansi), NUL and the other C0/C1 controls; line ends become
 * `\n` and tabs stay. (What is printed is escaped as well: `escapeControls` in api/recall-render.ts.)
 */
import stripAnsi from 'strip-ansi';

/** C0 controls but tab and newline, DEL, C1 controls (what strip-ansi leaves: a lone ESC, BEL, NUL…). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControls(text: string): string {
  return stripAnsi(text.replace(/\r\n?/g, '\n')).replace(CONTROLS, '');
}
