import assert from '../support/assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { NotAudioError, probeAudio } from '../../lib/audio/probe-audio';

const execFileAsync = promisify(execFile);

describe('probeAudio (ffprobe)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slowlane-probe-'));
    // Two seconds of a tone, tagged, as WAV and as Opus in Ogg: the containers keep the comment in different places.
    await execFileAsync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', join(dir, 'tone.wav'), 'synth', '2', 'sine', '440']);
    for (const [name, codec] of [
      ['tagged.wav', 'pcm_s16le'],
      ['tagged.ogg', 'libopus'],
      ['tagged.flac', 'flac'],
    ] as const) {
      await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'tone.wav'), '-c:a', codec, '-metadata', 'comment=slowlane-script/1 []', join(dir, name)]);
    }
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  test.each(['tagged.wav', 'tagged.ogg', 'tagged.flac'])('when %s carries a comment, then its duration and comment are read', async (name) => {
    const facts = await probeAudio(join(dir, name));
    assert.ok(Math.abs(facts.durationSeconds - 2) < 0.1, `${facts.durationSeconds} s`);
    assert.equal(facts.comment, 'slowlane-script/1 []');
  });

  test('when the file is no recording, then it is refused as not audio', async () => {
    await writeFile(join(dir, 'text.ogg'), 'OggS but not really');
    await assert.rejects(probeAudio(join(dir, 'text.ogg')), NotAudioError);
  });
});
