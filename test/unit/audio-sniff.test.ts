import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { sniffContentType } from '../../api/sniff-content-type';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('recordings judged by their bytes', () => {
  test.each([
    ['a WAV', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '), 'audio/wav'],
    ['an MP3 with an ID3 tag', bytes('ID3', [4, 0, 0, 0, 0, 0, 0]), 'audio/mpeg'],
    ['an MP3 frame without a tag', bytes([0xff, 0xfb, 0x90, 0x64, 0, 0]), 'audio/mpeg'],
    ['an M4A', bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0]), 'audio/mp4'],
    ['raw AAC (ADTS)', bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f]), 'audio/aac'],
    ['an OGG/Opus', bytes('OggS', [0, 2, 0, 0]), 'audio/ogg'],
    ['a FLAC', bytes('fLaC', [0, 0, 0, 0x22]), 'audio/flac'],
  ])('when the upload is %s, then it is sniffed as %s', (_, head, expected) => {
    assert.equal(sniffContentType(head), expected);
  });

  test('when the bytes start with a UTF-16 byte order mark (FF FE), then they are no MP3 frame', () => {
    assert.equal(sniffContentType(bytes([0xff, 0xfe, 0x41, 0x42])), undefined);
  });

  test('when a RIFF file is no WAVE (an AVI), then it is no recording', () => {
    assert.notEqual(sniffContentType(bytes('RIFF', [0x24, 0, 0, 0], 'AVI LIST', [0, 0, 1, 2])), 'audio/wav');
  });
});
