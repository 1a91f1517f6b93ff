package matrix;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.netty.util.CharsetUtil;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

// A Netty echo server and its client in one JVM, over NIO on 127.0.0.1 at
// a port the system picks: the client sends LINES lines and reads them
// back, then both shut down gracefully. The server's handler calls probeSq
// on its first 10 lines. Prints the lines read back, their checksum and the
// probes' sum (285); exits 1 if the echo took more than a minute.
public class NettyEcho {
    static final int LINES = 1000;

    public static int probeSq(int x) { return x * x; }

    public static void main(String[] args) throws Exception {
        AtomicLong probed = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        int[] got = new int[1];
        CRC32 crc = new CRC32();
        EventLoopGroup boss = new NioEventLoopGroup(1), workers = new NioEventLoopGroup(1), clients = new NioEventLoopGroup(1);
        try {
            Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ChannelPipeline p = ch.pipeline();
                        p.addLast(new LineBasedFrameDecoder(256), new StringDecoder(CharsetUtil.UTF_8),
                            new StringEncoder(CharsetUtil.UTF_8));
                        p.addLast(new SimpleChannelInboundHandler<String>() {
                            int n;

                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, String line) {
                                if (n < 10) probed.addAndGet(probeSq(n));
                                n++;
                                ctx.writeAndFlush(line + "\n");
                            }
                        });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            Channel client = new Bootstrap().group(clients).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ChannelPipeline p = ch.pipeline();
                        p.addLast(new LineBasedFrameDecoder(256), new StringDecoder(CharsetUtil.UTF_8),
                            new StringEncoder(CharsetUtil.UTF_8));
                        p.addLast(new SimpleChannelInboundHandler<String>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, String line) {
                                crc.update(line.getBytes(CharsetUtil.UTF_8));
                                if (++got[0] == LINES) {
                                    ctx.close();
                                    done.countDown();
                                }
                            }
                        });
                    }
                })
                .connect(server.localAddress()).sync().channel();
            for (int i = 0; i < LINES; i++) client.write("line " + i + " of " + LINES + "\n");
            client.flush();
            boolean ok = done.await(1, TimeUnit.MINUTES);
            client.closeFuture().await(10, TimeUnit.SECONDS);
            server.close().await(10, TimeUnit.SECONDS);
            System.out.println("echoed " + got[0] + " of " + LINES + " lines, crc32 " + Long.toHexString(crc.getValue()));
            System.out.println("probes " + probed.get());
            if (!ok) {
                System.out.println("timed out");
                System.exit(1);
            }
        } finally {
            for (EventLoopGroup g : new EventLoopGroup[] {clients, workers, boss}) g.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            for (EventLoopGroup g : new EventLoopGroup[] {clients, workers, boss}) g.terminationFuture().await(10, TimeUnit.SECONDS);
        }
        System.out.println("shut down");
    }
}
