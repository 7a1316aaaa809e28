package lab.fanout.main.server.reactive;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.Channel;
import reactor.netty.ChannelPipelineConfigurer;
import reactor.netty.ConnectionObserver;

/**
 * Tomcat's {@code maxConnections} on Reactor Netty, which has no such limit: at {@code ceiling} open connections the
 * server stops accepting (its listening channel's auto-read off), so that further clients wait in the kernel's accept
 * queue, as past Tomcat's limit, until a connection closes; then it accepts again. Without it every client of a burst
 * gets a channel and its buffers, whatever the heap holds. "About" the ceiling: a read already under way accepts the
 * rest of its batch (Netty's max messages per read, 16).
 * <p>
 * Installed per connection ({@code HttpServer.doOnChannelInit}); the switch runs on the listening channel's own event
 * loop and reads the count there, so that concurrent opens and closes cannot leave it off below the ceiling.
 */
public final class NettyConnectionCeiling implements ChannelPipelineConfigurer {

    private final int ceiling;
    private final AtomicInteger open = new AtomicInteger();

    /** @param ceiling the most connections kept open, at least 1 */
    public NettyConnectionCeiling(int ceiling) {
        if (ceiling < 1) {
            throw new IllegalArgumentException("a connection ceiling must be at least 1, was " + ceiling);
        }
        this.ceiling = ceiling;
    }

    @Override
    public void onChannelInit(ConnectionObserver observer, Channel channel, SocketAddress remoteAddress) {
        Channel listening = channel.parent();
        if (listening == null) {
            return;   // not an accepted connection
        }
        open.incrementAndGet();
        accepting(listening);
        channel.closeFuture().addListener(closed -> {
            open.decrementAndGet();
            accepting(listening);
        });
    }

    /** @return the connections open now */
    public int open() {
        return open.get();
    }

    private void accepting(Channel listening) {
        listening.eventLoop().execute(() -> listening.config().setAutoRead(open.get() < ceiling));
    }
}
