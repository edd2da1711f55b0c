/**
 * Control characters never enter the store: what is stored (memories, episodes) loses terminal
 * escape sequences (ANSI CSI/OSC), NUL and the other C0/C1 controls; line ends become `\n` and tabs
 * stay. (What is printed is escaped as well: `escapeControls` in recall-format.ts.)
 */

/** CSI (`ESC [ … final`), OSC (`ESC ] … BEL | ESC \`), and other two-character escapes. */
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
/** C0 controls but tab and newline, DEL, C1 controls. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPES, '').replace(CONTROLS, '');
}
