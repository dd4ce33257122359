import type { AudioContentType } from './upload-content-type';

const ascii = (head: Uint8Array, at: number, text: string): boolean =>
  head.length >= at + text.length && [...text].every((char, offset) => head[at + offset] === char.charCodeAt(0));

/** ISO BMFF brands of audio-only files (M4A, and MP4 audio as phones record it). */
const MP4_AUDIO_BRANDS = ['M4A ', 'M4B ', 'mp42', 'isom', 'mp41', 'dash', 'iso5', 'iso6'];

/**
 * A recording's container by its magic bytes: WAV (RIFF…WAVE), MP3 (an ID3 tag or an MPEG audio frame sync),
 * M4A (an ISO BMFF `ftyp` box), AAC (an ADTS frame sync), OGG/Opus (OggS) and FLAC (fLaC). Whether it really is
 * playable audio is for ffprobe, at the door's duration check.
 */
export function sniffAudio(head: Uint8Array): AudioContentType | undefined {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'audio/wav';
  if (ascii(head, 0, 'fLaC')) return 'audio/flac';
  if (ascii(head, 0, 'OggS')) return 'audio/ogg';
  if (ascii(head, 4, 'ftyp') && MP4_AUDIO_BRANDS.some((brand) => ascii(head, 8, brand))) return 'audio/mp4';
  if (ascii(head, 0, 'ID3')) return 'audio/mpeg';
  const [first, second] = [head[0] ?? 0, head[1] ?? 0];
  if (first === 0xff && (second & 0xf0) === 0xf0 && (second & 0x06) === 0) return 'audio/aac';
  // An MP3 frame: sync (11 bits), a version that is not reserved, layer III, a bitrate index neither "free" nor
  // "bad", a sampling rate that is not reserved. Looser (any layer) would take a UTF-16 BOM (FF FE) for audio.
  const third = head[2] ?? 0;
  if (first === 0xff && (second & 0xe0) === 0xe0 && ((second >> 3) & 0x03) !== 0x01 && (second & 0x06) === 0x02) {
    const bitrate = third >> 4;
    if (bitrate !== 0 && bitrate !== 0x0f && ((third >> 2) & 0x03) !== 0x03) return 'audio/mpeg';
  }
  return undefined;
}
