/**
 * CSV as RFC 4180 writes it (https://www.rfc-editor.org/rfc/rfc4180): fields split by commas,
 * quoted fields may hold commas, line breaks and doubled quotes; CRLF or LF; a byte-order mark
 * at the start is dropped (spreadsheets write one). Records are yielded one at a time, each
 * with the line it starts on, so 10,000 rows never sit in memory as objects at once.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let ended = false;
    while (i < text.length && !ended) {
      const c = text[i] as string;
      i++;
      if (quoted) {
        if (c !== '"') {
          if (c === '\n') line++;
          field += c;
        } else if (text[i] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else if (c === '"' && field === '') quoted = true;
      else if (c === ',') {
        fields.push(field);
        field = '';
      } else if (c === '\r' || c === '\n') {
        if (c === '\r' && text[i] === '\n') i++;
        ended = true;
      } else field += c;
    }
    fields.push(field);
    line++;
    // Blank lines (a trailing newline, a spacer row) are not records.
    if (fields.length === 1 && fields[0]?.trim() === '') continue;
    yield { line: start, fields };
  }
}
