/**
 * Month names and abbreviations in the languages of the invoices Slowlane sees (English, French,
 * Dutch, German, Polish incl. genitive forms), lower case, mapped to the month number.
 */
const MONTHS: Record<string, number> = {};

function add(month: number, names: string): void {
  for (const name of names.split(' ')) MONTHS[name] = month;
}

add(1, 'jan january janv janvier januari januar jänner styczeń stycznia sty');
add(2, 'feb february fév fev févr fevr février fevrier februari februar luty lutego lut');
add(3, 'mar march mars mrt maart märz marz mär marzec marca');
add(4, 'apr april avr avril kwiecień kwietnia kwi');
add(5, 'may mai mei maj maja');
add(6, 'jun june juin juni czerwiec czerwca cze');
add(7, 'jul july juil juillet juli lipiec lipca lip');
add(8, 'aug august août aout augustus sierpień sierpnia sie');
add(9, 'sep sept september septembre wrzesień września wrz');
add(10, 'oct october octobre okt oktober październik października paź');
add(11, 'nov november novembre listopad listopada lis');
add(12, 'dec december déc decembre décembre dezember dez grudzień grudnia gru');

/** Longest first, so "janvier" is tried before "jan". */
export const MONTH_NAME_PATTERN = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

export function monthNumber(name: string): number | undefined {
  return MONTHS[name.toLowerCase()];
}
