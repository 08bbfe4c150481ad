package io.podnuma.agent.nri.mux;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One conn's frames as a byte stream: a ttrpc frame may span several mux frames and one mux frame may end inside a
 * ttrpc header. One producer (the mux reader) and one consumer (the ttrpc reader).
 */
final class ConnInputStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
    private final int capacity;
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    ConnInputStream(int capacity) {
        this.capacity = capacity;
    }

    /** Queues a frame's payload; false when {@code capacity} frames are already waiting (the caller closes). */
    boolean offer(byte[] payload) {
        if (frames.size() >= capacity) {
            return false;
        }
        return frames.offer(payload);
    }

    /** No more frames: the reader sees end of stream once the queued ones are read. */
    void end() {
        frames.offer(END);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (position == current.length) {
            if (ended) {
                return -1;
            }
            try {
                current = frames.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a mux frame");
            }
            position = 0;
            if (current == END) {
                ended = true;
                frames.offer(END);
            }
        }
        int n = Math.min(len, current.length - position);
        System.arraycopy(current, position, b, off, n);
        position += n;
        return n;
    }
}
